import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import type { UsdcProvider } from '../../generated/prisma/client'

/**
 * The account's USDC provider, or null on a test account without one (the sandbox simulates the
 * rails there). A live account without one cannot take USDC at all (CONTRACT §9: no fake money).
 */
export async function requireUsdcProvider(context: DomainContext, param: string): Promise<UsdcProvider | null> {
  const provider = await context.db.usdcProvider.findUnique({ where: { accountId: context.account.id } })
  if (!provider && context.account.mode === 'live') {
    throw new DomainError('rail_not_available', 'USDC is not available on this account: configure its USDC provider first', { param })
  }
  return provider
}
