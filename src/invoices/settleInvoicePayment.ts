import { recordEvent } from '../events/recordEvent'
import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { syncSubscriptionEntitlement } from '../entitlements/syncSubscriptionEntitlement'
import type { Invoice } from '../generated/prisma/client'
import { getInvoice } from './getInvoice'

/**
 * A payment attempt on an open invoice, as the rail reports it. Succeeded: the invoice is paid
 * (exactly once: a conditional update), a succeeded transaction records it, and its subscription
 * becomes active again (its first payment, or the debt that made it past_due). Failed: a failed
 * transaction, the invoice stays open, and an active subscription becomes past_due.
 */
export async function settleInvoicePayment(context: DomainContext, invoiceId: string, outcome: 'succeeded' | 'failed'): Promise<Invoice> {
  return inTransaction(context, async (transaction) => {
    const { db, account, clock } = transaction
    const invoice = await getInvoice(transaction, invoiceId)
    if (invoice.status !== 'open') throw new DomainError('invalid_state', `This invoice is ${invoice.status}`, { param: 'invoiceId' })
    const now = clock.now()
    const recordAttempt = async (status: 'succeeded' | 'failed') => {
      const attempt = await db.transaction.create({
        data: { id: createId('Transaction'), accountId: account.id, customerId: invoice.customerId, invoiceId: invoice.id, status, amount: invoice.total, currency: invoice.currency, createdAt: now },
      })
      await recordEvent(transaction, status === 'succeeded' ? 'transaction.succeeded' : 'transaction.failed', attempt)
    }
    if (outcome === 'failed') {
      await recordAttempt('failed')
      const moved = await db.subscription.updateMany({ where: { id: invoice.subscriptionId, status: 'active' }, data: { status: 'past_due' } })
      if (moved.count === 1) {
        const subscription = await db.subscription.findUniqueOrThrow({ where: { id: invoice.subscriptionId } })
        await recordEvent(transaction, 'subscription.updated', subscription)
        await syncSubscriptionEntitlement(transaction, subscription, 'past_due', now)
      }
      await recordEvent(transaction, 'invoice.payment_failed', invoice)
      return db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })
    }
    const paid = await db.invoice.updateMany({ where: { id: invoice.id, status: 'open' }, data: { status: 'paid', amountPaid: invoice.total, paidAt: now } })
    if (paid.count === 0) throw new DomainError('invalid_state', 'This invoice was paid meanwhile', { param: 'invoiceId' })
    await recordEvent(transaction, 'invoice.paid', invoice)
    await recordAttempt('succeeded')
    const stillOpen = await db.invoice.count({ where: { subscriptionId: invoice.subscriptionId, status: 'open', dueDate: { lt: now } } })
    const reactivated = await db.subscription.updateMany({
      where: { id: invoice.subscriptionId, status: { in: stillOpen === 0 ? ['trialing', 'past_due'] : ['trialing'] } },
      data: { status: 'active' },
    })
    if (reactivated.count === 1) {
      const subscription = await db.subscription.findUniqueOrThrow({ where: { id: invoice.subscriptionId } })
      await recordEvent(transaction, 'subscription.updated', subscription)
      await syncSubscriptionEntitlement(transaction, subscription, 'active', now, { createIfMissing: true })
    }
    return db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })
  })
}
