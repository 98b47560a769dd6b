import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import type { CheckoutSession } from '../generated/prisma/client'
import { getCheckoutSession } from './getCheckoutSession'

/** open → canceled; any other state is 409 invalid_state. */
export async function cancelCheckoutSession(context: DomainContext, sessionId: string): Promise<CheckoutSession> {
  return inTransaction(context, async (transaction) => {
    const now = transaction.clock.now()
    const changed = await transaction.db.checkoutSession.updateMany({
      where: { id: sessionId, accountId: transaction.account.id, status: 'open', expiresAt: { gt: now } },
      data: { status: 'canceled', canceledAt: now },
    })
    const session = await getCheckoutSession(transaction, sessionId)
    if (changed.count === 0) throw new DomainError('invalid_state', `This checkout session is ${session.status}`, { param: 'sessionId' })
    return session
  })
}
