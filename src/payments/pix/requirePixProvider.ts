import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import type { PixProvider } from '../../generated/prisma/client'

/**
 * The account's PSP, or null on a test account without one (the sandbox simulates PIX there). A live
 * account without one cannot take BRL at all (CONTRACT §9: no fake money).
 */
export async function requirePixProvider(context: DomainContext, param: string): Promise<PixProvider | null> {
  const provider = await context.db.pixProvider.findUnique({ where: { accountId: context.account.id } })
  if (!provider && context.account.mode === 'live') {
    throw new DomainError('rail_not_available', 'PIX is not available on this account: configure its PIX provider first', { param })
  }
  return provider
}
