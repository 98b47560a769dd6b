import { formatAmount } from '../domain/money'
import { recordEvent } from '../events/recordEvent'
import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import type { CheckoutSession } from '../generated/prisma/client'
import { createSubscription } from '../subscriptions/createSubscription'
import { getCheckoutSession } from './getCheckoutSession'

/**
 * Settles a session as the payment rail confirms it. Exactly once: the open → paid move is a
 * conditional update, so a confirmation that arrives twice (or two at once) finds it paid and changes
 * nothing more; the transaction's unique checkoutId is a second guard. What paying gives (CONTRACT §6):
 * a succeeded transaction, plus credits (mode credits, credit_pack products), a purchase entitlement
 * (one_time products), or an active subscription whose first invoice that transaction paid (mode
 * subscription).
 */
export async function payCheckoutSession(context: DomainContext, sessionId: string, options: { confirmedByProvider?: boolean } = {}): Promise<CheckoutSession> {
  return inTransaction(context, async (transaction) => {
    const { db, account, clock } = transaction
    const now = clock.now()
    // Money the provider confirmed was paid while the charge was payable; it may be seen only after
    // the session's expiry (a missed callback found by reconciliation), and it settles all the same.
    const settled = await db.checkoutSession.updateMany({
      where: { id: sessionId, accountId: account.id, status: 'open', ...(options.confirmedByProvider ? {} : { expiresAt: { gt: now } }) },
      data: { status: 'paid', paidAt: now },
    })
    const session = await getCheckoutSession(transaction, sessionId)
    if (settled.count === 0) {
      if (session.status === 'paid') return session
      throw new DomainError('invalid_state', `This checkout session is ${session.status} and cannot be paid`, { param: 'sessionId' })
    }
    const transactionId = createId('Transaction')
    const completed = async (result: CheckoutSession) => {
      await recordEvent(transaction, 'transaction.succeeded', { id: transactionId })
      await recordEvent(transaction, 'checkout.session.completed', result)
      return result
    }
    await db.transaction.create({
      data: {
        id: transactionId,
        accountId: account.id,
        customerId: session.customerId,
        checkoutId: session.id,
        status: 'succeeded',
        amount: session.amount,
        currency: session.currency,
        createdAt: now,
      },
    })
    const product = session.productId ? await db.product.findUniqueOrThrow({ where: { id: session.productId } }) : null
    if (session.mode === 'subscription' && product) {
      const { subscription } = await createSubscription(transaction, { customerId: session.customerId, productId: product.id }, { paidUpFront: { transactionId } })
      return completed(await db.checkoutSession.update({ where: { id: session.id }, data: { subscriptionId: subscription.id } }))
    }
    if (session.mode === 'credits' || product?.type === 'credit_pack') {
      await db.creditLedgerEntry.create({
        data: {
          id: createId('CreditLedgerEntry'),
          accountId: account.id,
          customerId: session.customerId,
          currency: session.currency,
          amount: session.amount,
          kind: 'grant',
          description: product ? `Purchase of ${product.name}` : 'Credit purchase',
          checkoutSessionId: session.id,
          createdAt: now,
        },
      })
      await recordEvent(transaction, 'credits.granted', { customerId: session.customerId, currency: session.currency, amount: formatAmount(session.amount, session.currency) })
    } else if (product?.type === 'one_time') {
      const entitlement = await db.entitlement.create({
        data: {
          id: createId('Entitlement'),
          accountId: account.id,
          customerId: session.customerId,
          productId: product.id,
          status: 'active',
          source: 'purchase',
          checkoutSessionId: session.id,
          startsAt: now,
        },
      })
      await recordEvent(transaction, 'entitlement.updated', entitlement)
    }
    return completed(session)
  })
}
