import type { HDKey } from '@scure/bip32'
import { getAddress, isAddress, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { inTransaction, type DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import type { UsdcProvider } from '../../generated/prisma/client'
import { encryptSecret } from '../../secrets/encryptSecret'
import { createChainClient } from './createChainClient'
import { parseXpub } from './deriveDepositAddress'
import { erc20Abi } from './erc20Abi'

export interface ConfigureUsdcProviderInput {
  rpcUrl: string
  chainId: number
  token: string
  xpub: string
  confirmations?: number | null
  /** A hex private key (`0x` optional, surrounding whitespace ignored). */
  signerKey?: string | null
  treasury?: string | null
  pollSeconds?: number | null
}

/**
 * Stores the account's USDC provider (CONTRACT §9.2) after checking it against the chain: the node
 * answers with the chain id given, the token has 6 decimals, the xpub parses. The signer key is kept
 * only encrypted. The watcher starts reading at the head of the chain as it is now.
 */
export async function configureUsdcProvider(context: DomainContext, input: ConfigureUsdcProviderInput): Promise<UsdcProvider> {
  const rpcUrl = validateRpcUrl(input.rpcUrl)
  if (!Number.isInteger(input.chainId) || input.chainId < 1 || input.chainId > 2 ** 31 - 1) throw invalid('chainId', 'chainId must be a positive integer')
  const token = validateAddress(input.token, 'token')
  const xpubKey = parseXpub(input.xpub)
  if (!xpubKey) throw invalid('xpub', 'xpub must be a BIP32 extended public key (xpub…)')
  const confirmations = wholeNumber(input.confirmations, 12, 1, 10_000, 'confirmations')
  const pollSeconds = wholeNumber(input.pollSeconds, 5, 1, 3600, 'pollSeconds')
  let signerKey: `0x${string}` | undefined
  let signerAddress: Address | undefined
  if (input.signerKey != null) {
    const hex = input.signerKey.trim().replace(/^0x/i, '')
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw invalid('signerKey', 'signerKey must be a 32-byte hex private key')
    signerKey = `0x${hex.toLowerCase()}`
    try {
      signerAddress = privateKeyToAccount(signerKey).address
    } catch {
      throw invalid('signerKey', 'signerKey is not a valid secp256k1 private key')
    }
  }
  const treasury = input.treasury != null ? validateAddress(input.treasury, 'treasury') : signerAddress

  const client = createChainClient(rpcUrl, 5_000)
  const chainId = await client.getChainId().catch(() => {
    throw invalid('rpcUrl', 'The RPC node at rpcUrl did not answer eth_chainId')
  })
  if (chainId !== input.chainId) throw invalid('chainId', `The RPC node is on chain ${chainId}, not ${input.chainId}`)
  const decimals = await client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).catch(() => undefined)
  if (decimals !== 6) throw invalid('token', 'token must be an ERC-20 contract with 6 decimals on this chain')
  const head = await client.getBlockNumber({ cacheTime: 0 }).catch(() => {
    throw invalid('rpcUrl', 'The RPC node at rpcUrl did not answer eth_blockNumber')
  })
  const encryptedSignerKey = signerKey ? encryptSecret(signerKey) : null

  return inTransaction(context, async ({ db, account, clock }) => {
    // Two accounts with one wallet on one chain would be handed the same deposit addresses (and mix
    // their money): refused. The lock makes two accounts configuring it at once see each other. The
    // refusal says only that the key is in use, never by whom.
    await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`usdc-xpub:${chainId}`}, 0))`
    const others = await db.usdcProvider.findMany({ where: { chainId, accountId: { not: account.id } }, select: { xpub: true } })
    if (others.some((other) => sameWallet(parseXpub(other.xpub), xpubKey))) {
      throw invalid('xpub', 'This xpub is already in use on this chain: each account needs a wallet of its own')
    }
    const settings = {
      rpcUrl,
      chainId,
      token,
      xpub: input.xpub,
      confirmations,
      pollSeconds,
      encryptedSignerKey,
      signerAddress: signerAddress ?? null,
      treasury: treasury ?? null,
      startBlock: head,
      configuredAt: clock.now(),
    }
    const provider = await db.usdcProvider.upsert({ where: { accountId: account.id }, create: { accountId: account.id, ...settings }, update: settings })
    // The first account on this chain and token starts its watcher here; a later one finds it
    // already reading (from an earlier block, so nothing sent to the new account's addresses is missed).
    await db.usdcWatchCursor.createMany({ data: { chainId, token, nextBlock: head }, skipDuplicates: true })
    return provider
  })
}

function invalid(param: string, message: string): DomainError {
  return new DomainError('validation_error', message, { param })
}

/** The same key pair and chain code derive the same addresses, whatever depth or parent the text names. */
function sameWallet(stored: HDKey | undefined, given: HDKey): boolean {
  if (!stored?.publicKey || !stored.chainCode || !given.publicKey || !given.chainCode) return false
  return Buffer.from(stored.publicKey).equals(Buffer.from(given.publicKey)) && Buffer.from(stored.chainCode).equals(Buffer.from(given.chainCode))
}

function validateRpcUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalid('rpcUrl', 'rpcUrl must be an http(s) URL')
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || text.length > 2000) throw invalid('rpcUrl', 'rpcUrl must be an http(s) URL of at most 2000 characters')
  return text
}

function validateAddress(text: string, param: string): Address {
  if (!isAddress(text, { strict: false })) throw invalid(param, `${param} must be a 20-byte hex address`)
  return getAddress(text.toLowerCase())
}

function wholeNumber(value: number | null | undefined, fallback: number, min: number, max: number, param: string): number {
  if (value == null) return fallback
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(param, `${param} must be a whole number from ${min} to ${max}`)
  return value
}
