import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import type { CheckoutSession } from '../generated/prisma/client'
import { removePixCharge } from '../payments/pix/removePixCharge'
import { getCheckoutSession } from './getCheckoutSession'

/** open → canceled (its PIX charge removed at the PSP); any other state is 409 invalid_state. */
export async function cancelCheckoutSession(context: DomainContext, sessionId: string): Promise<CheckoutSession> {
  return inTransaction(context, async (transaction) => {
    const now = transaction.clock.now()
    const changed = await transaction.db.checkoutSession.updateMany({
      where: { id: sessionId, accountId: transaction.account.id, status: 'open', expiresAt: { gt: now } },
      data: { status: 'canceled', canceledAt: now },
    })
    const session = await getCheckoutSession(transaction, sessionId)
    if (changed.count === 0) throw new DomainError('invalid_state', `This checkout session is ${session.status}`, { param: 'sessionId' })
    const charge = await transaction.db.pixCharge.findUnique({ where: { checkoutSessionId: session.id } })
    const provider = charge ? await transaction.db.pixProvider.findUnique({ where: { accountId: transaction.account.id } }) : null
    if (charge && provider) await removePixCharge(transaction, provider, charge)
    return session
  })
}
