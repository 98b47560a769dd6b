import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { CheckoutSession } from '../generated/prisma/client'
import { effectiveStatus } from './checkoutRules'

/** The session with its effective status (expiry is applied on read). */
export async function getCheckoutSession(context: DomainContext, sessionId: string, param = 'sessionId'): Promise<CheckoutSession> {
  const session = await context.db.checkoutSession.findUnique({ where: { accountId_id: { accountId: context.account.id, id: sessionId } } })
  if (!session) throw new DomainError('checkout_session_not_found', 'No such checkout session', { param })
  return { ...session, status: effectiveStatus(session, context.clock.now()) }
}
