import type { TransactionContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import type { Refund } from '../generated/prisma/client'
import { recordEvent } from '../events/recordEvent'

/**
 * The provider's final word on one refund, applied exactly once (a conditional pending → outcome
 * update). Succeeded: the amount counts into the transaction's amountRefunded, which becomes
 * `refunded` when that equals its amount, and a refunded credits purchase takes the same amount back
 * out of the ledger (an `adjustment`) in this same transaction, with its `transaction.refunded` event.
 * Failed: nothing is counted.
 */
export async function confirmRefund(context: TransactionContext, refund: Refund, outcome: 'succeeded' | 'failed', failureReason?: string): Promise<boolean> {
  const { db, account } = context
  const now = context.clock.now()
  const moved = await db.refund.updateMany({
    where: { id: refund.id, accountId: account.id, status: 'pending' },
    data: { status: outcome, confirmedAt: now, ...(failureReason ? { failureReason: failureReason.slice(0, 500) } : {}) },
  })
  if (moved.count === 0 || outcome === 'failed') return moved.count === 1
  const transaction = await db.transaction.update({ where: { id: refund.transactionId }, data: { amountRefunded: { increment: refund.amount } } })
  if (transaction.amountRefunded.greaterThanOrEqualTo(transaction.amount)) {
    await db.transaction.update({ where: { id: transaction.id }, data: { status: 'refunded' } })
  }
  const session = transaction.checkoutId ? await db.checkoutSession.findUnique({ where: { id: transaction.checkoutId }, include: { product: true } }) : null
  if (session && (session.mode === 'credits' || session.product?.type === 'credit_pack')) {
    await db.creditLedgerEntry.create({
      data: {
        id: createId('CreditLedgerEntry'),
        accountId: account.id,
        customerId: session.customerId,
        currency: session.currency,
        amount: refund.amount.negated(),
        kind: 'adjustment',
        description: `Refund ${refund.id} of ${transaction.id}`,
        checkoutSessionId: session.id,
        createdAt: now,
      },
    })
  }
  await recordEvent(context, 'transaction.refunded', { id: transaction.id })
  return true
}
