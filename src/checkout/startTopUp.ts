import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { parseAmount } from '../domain/money'
import type { CheckoutSession } from '../generated/prisma/client'
import { createCheckoutSession } from './createCheckoutSession'
import type { TopUp } from './paymentLinks'

/**
 * Opening a top-up link (handed out by a denied access check) gives the customer a credits checkout
 * for what was missing. Opening it again while that session is open reuses it, so a reloaded page does
 * not pile up sessions.
 */
export async function startTopUp(context: DomainContext, topUp: TopUp): Promise<CheckoutSession> {
  const amount = parseAmount(topUp.amount, topUp.currency, 'amount')
  return inTransaction(context, async (transaction) => {
    const open = await transaction.db.checkoutSession.findFirst({
      where: {
        accountId: transaction.account.id,
        customerId: topUp.customerId,
        mode: 'credits',
        status: 'open',
        currency: topUp.currency,
        amount,
        expiresAt: { gt: transaction.clock.now() },
        metadata: { path: ['source'], equals: 'top-up' },
      },
      orderBy: { createdAt: 'desc' },
    })
    if (open) return open
    return createCheckoutSession(transaction, {
      mode: 'credits',
      customerId: topUp.customerId,
      amount: topUp.amount,
      currency: topUp.currency,
      metadata: { source: 'top-up' },
    })
  })
}
