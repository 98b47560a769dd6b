import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { parseAmount } from '../domain/money'
import { Prisma, type CheckoutSession } from '../generated/prisma/client'
import { createCheckoutSession } from './createCheckoutSession'
import type { OpenedTopUp } from './paymentLinks'

/**
 * Opening a top-up link (handed out by a denied access check) gives the customer a credits checkout
 * for what was missing. One link opens one session, ever: opened again (a reload, or forty tabs at
 * once) it answers that same session, whatever its state; the link's own lock makes the first opening
 * the only one that creates. An expired link creates nothing (undefined).
 */
export async function startTopUp(context: DomainContext, topUp: OpenedTopUp): Promise<CheckoutSession | undefined> {
  const amount = parseAmount(topUp.amount, topUp.currency, 'amount')
  return inTransaction(context, async (transaction) => {
    await transaction.db.$executeRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`top-up:${topUp.linkId}`}, 0))`)
    const opened = await transaction.db.checkoutSession.findFirst({
      where: { accountId: transaction.account.id, mode: 'credits', metadata: { path: ['topUpLink'], equals: topUp.linkId } },
    })
    if (opened) return opened
    if (transaction.clock.now() > topUp.expiresAt) return undefined
    return createCheckoutSession(transaction, {
      mode: 'credits',
      customerId: topUp.customerId,
      amount: amount.toFixed(),
      currency: topUp.currency,
      metadata: { source: 'top-up', topUpLink: topUp.linkId },
    })
  })
}
