import { encodeFunctionData, getAddress, keccak256, type Address, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { DatabaseClient } from '../../database/createDatabaseClient'
import { runInTransaction } from '../../domain/DomainContext'
import type { UsdcSend } from '../../generated/prisma/client'
import { logError, logWarning } from '../../logging/log'
import { decryptSecret } from '../../secrets/decryptSecret'
import { erc20Abi } from './erc20Abi'
import { finishUsdcSend } from './finishUsdcSend'
import { toTokenUnits } from './tokenUnits'

export interface SignOptions {
  /** Called after a send is signed and committed, before it is broadcast (tests inject a crash here). */
  afterSigned?: (send: UsdcSend) => Promise<void>
}

/**
 * Signs the pending sends (pulls and refunds) of accounts on this chain and token and broadcasts them.
 * The rule that must hold: a send's signed bytes are committed to PostgreSQL before they reach the
 * node, and a send is signed at most once (status pending → signed, conditionally). After a crash
 * anywhere, confirmUsdcSends finds the stored transaction by its hash or re-sends the same bytes, so
 * no second transfer is ever signed for the same pull or refund.
 * Nonces: per signer, under an advisory lock, the next after the highest this service stored and no
 * lower than the node's pending count, so two processes never sign two transactions with one nonce.
 */
export async function signUsdcSends(prisma: DatabaseClient, client: PublicClient, chainId: number, token: string, options: SignOptions = {}): Promise<number> {
  const pending = await prisma.usdcSend.findMany({ where: { chainId, token, status: 'pending' }, orderBy: { createdAt: 'asc' }, take: 50 })
  let signed = 0
  for (const send of pending) {
    const provider = await prisma.usdcProvider.findUnique({ where: { accountId: send.accountId } })
    if (!provider?.encryptedSignerKey) continue
    const signer = privateKeyToAccount(decryptSecret(provider.encryptedSignerKey) as Hex)
    if (signer.address !== getAddress(send.signerAddress)) {
      await finishUsdcSend(prisma, send, 'failed', 'the signer key changed before this was sent')
      continue
    }
    const units = toTokenUnits(send.amount)
    const data =
      send.kind === 'pull'
        ? encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [getAddress(send.fromAddress!), getAddress(send.toAddress), units] })
        : encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(send.toAddress), units] })
    let gas: bigint
    try {
      gas = await client.estimateGas({ account: signer.address, to: token as Address, data })
    } catch (error) {
      // The node says the call would revert. A pull then fails like a short allowance; a refund waits
      // for the signer to hold the money (retried every step, logged).
      if (send.kind === 'pull' && isRevert(error)) await finishUsdcSend(prisma, send, 'failed', 'transferFrom would revert (allowance or balance)')
      else logError(error)
      continue
    }
    const fees = await readFees(client)
    const nodeNonce = await client.getTransactionCount({ address: signer.address, blockTag: 'pending' })
    const stored = await runInTransaction(prisma, async (db) => {
      await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`usdc-signer:${chainId}:${signer.address}`}, 0))`
      const current = await db.usdcSend.findUnique({ where: { id: send.id } })
      if (current?.status !== 'pending') return undefined
      if (send.kind === 'pull') {
        const invoice = await db.invoice.findUnique({ where: { id: send.invoiceId! } })
        if (invoice?.status !== 'open') {
          await db.usdcSend.update({ where: { id: send.id }, data: { status: 'failed', failureReason: 'the invoice was no longer open' } })
          return undefined
        }
      }
      const highest = await db.usdcSend.aggregate({ where: { chainId, signerAddress: send.signerAddress, nonce: { not: null } }, _max: { nonce: true } })
      const nonce = Math.max(nodeNonce, (highest._max.nonce ?? -1) + 1)
      const rawTransaction = await signer.signTransaction({ chainId, to: token as Address, data, nonce, gas: (gas * 12n) / 10n, ...fees })
      return db.usdcSend.update({ where: { id: send.id }, data: { status: 'signed', nonce, rawTransaction, transactionHash: keccak256(rawTransaction) } })
    })
    if (!stored) continue
    signed += 1
    await options.afterSigned?.(stored)
    await broadcast(client, stored)
  }
  return signed
}

/**
 * Sends stored bytes to the node. Never throws: "already known" or "nonce too low" only mean the node
 * has seen them (the receipt decides), and anything else (no gas money, the node down) is logged and
 * the same bytes are sent again next step.
 */
export async function broadcast(client: PublicClient, send: Pick<UsdcSend, 'id' | 'rawTransaction'>): Promise<void> {
  await client.sendRawTransaction({ serializedTransaction: send.rawTransaction as Hex }).catch((error: unknown) => {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    if (!/already known|nonce too low|known transaction|already imported/i.test(message)) logWarning('usdc send not accepted by the node; sent again next step', { send: send.id, reason: message })
  })
}

async function readFees(client: PublicClient): Promise<{ type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: 'legacy'; gasPrice: bigint }> {
  try {
    const fees = await client.estimateFeesPerGas({ chain: null, type: 'eip1559' })
    return { type: 'eip1559', maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
  } catch {
    return { type: 'legacy', gasPrice: await client.getGasPrice() }
  }
}

function isRevert(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (/revert/i.test(cause.message) || cause.name === 'ExecutionRevertedError' || cause.name === 'ContractFunctionRevertedError') return true
  }
  return false
}
