import type { PublicClient } from 'viem'
import type { DatabaseClient } from '../../database/createDatabaseClient'
import { confirmUsdcSends } from './confirmUsdcSends'
import { requestUsdcPulls } from './requestUsdcPulls'
import { signUsdcSends, type SignOptions } from './signUsdcSends'

export interface SendWorkResult {
  requested: number
  signed: number
  finished: number
}

/**
 * The signer's side of one chain and token, run by the watcher loop after each scan (never in a
 * request): follow what was sent before (first, so a crash's leftovers are found before anything new
 * is signed), start the pulls that are due, then sign and broadcast what is pending.
 */
export async function runUsdcSendWork(prisma: DatabaseClient, client: PublicClient, chainId: number, token: string, options: SignOptions = {}): Promise<SendWorkResult> {
  const finished = await confirmUsdcSends(prisma, client, chainId, token)
  const requested = await requestUsdcPulls(prisma, client, chainId, token)
  const signed = await signUsdcSends(prisma, client, chainId, token, options)
  return { requested, signed, finished }
}
