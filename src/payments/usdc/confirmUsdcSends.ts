import { getAddress, type Hex, type PublicClient, type TransactionReceipt } from 'viem'
import type { DatabaseClient } from '../../database/createDatabaseClient'
import { broadcast } from './signUsdcSends'
import { finishUsdcSend } from './finishUsdcSend'

/**
 * Follows the signed sends of accounts on this chain and token to their end. Each step reads the
 * receipt by the stored hash: none yet → the same signed bytes are sent again (after a crash before or
 * after broadcasting they may never have reached the node; re-sending them cannot move money twice,
 * they carry one nonce); a receipt `confirmations` deep (depth = head − block + 1, the account's
 * setting) decides by its `status`: success settles, reverted fails. A receipt not yet deep is read
 * again next step, so a reorg before depth decides nothing. When the signer's nonce is past ours at the
 * confirmed depth and our hash has no receipt, another transaction took the nonce: the send failed
 * (nothing moved).
 */
export async function confirmUsdcSends(prisma: DatabaseClient, client: PublicClient, chainId: number, token: string): Promise<number> {
  const signed = await prisma.usdcSend.findMany({ where: { chainId, token, status: 'signed' }, orderBy: [{ nonce: 'asc' }, { createdAt: 'asc' }], take: 200 })
  if (signed.length === 0) return 0
  const providers = await prisma.usdcProvider.findMany({ where: { accountId: { in: [...new Set(signed.map((send) => send.accountId))] } } })
  const head = await client.getBlockNumber({ cacheTime: 0 })
  let finished = 0
  for (const send of signed) {
    const confirmations = BigInt(providers.find((provider) => provider.accountId === send.accountId)?.confirmations ?? 12)
    let receipt = await readReceipt(client, send.transactionHash as Hex)
    if (!receipt) {
      await broadcast(client, send)
      const confirmedBlock = head - confirmations + 1n
      if (confirmedBlock < 0n) continue
      const used = await client.getTransactionCount({ address: getAddress(send.signerAddress), blockNumber: confirmedBlock })
      if (used <= send.nonce!) continue
      receipt = await readReceipt(client, send.transactionHash as Hex)
      if (!receipt) {
        if (await finishUsdcSend(prisma, send, 'failed', `nonce ${send.nonce} was used by another transaction of the signer`)) finished += 1
        continue
      }
    }
    if (head - receipt.blockNumber + 1n < confirmations) continue
    const outcome = receipt.status === 'success' ? 'succeeded' : 'failed'
    if (await finishUsdcSend(prisma, send, outcome, outcome === 'failed' ? `reverted in block ${receipt.blockNumber}` : undefined)) finished += 1
  }
  return finished
}

async function readReceipt(client: PublicClient, hash: Hex): Promise<TransactionReceipt | undefined> {
  try {
    return await client.getTransactionReceipt({ hash })
  } catch (error) {
    if (error instanceof Error && error.name === 'TransactionReceiptNotFoundError') return undefined
    throw error
  }
}
