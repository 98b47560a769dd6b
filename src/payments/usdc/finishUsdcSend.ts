import type { DatabaseClient } from '../../database/createDatabaseClient'
import { contextForAccount, runInTransaction } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { createId } from '../../domain/createId'
import { recordEvent } from '../../events/recordEvent'
import type { UsdcSend } from '../../generated/prisma/client'
import { settleInvoicePayment } from '../../invoices/settleInvoicePayment'
import { confirmRefund } from '../../transactions/confirmRefund'

/**
 * A send's final outcome, applied exactly once (a conditional move from pending or signed), with
 * what it means in the same transaction: a pull that succeeded pays its invoice (the subscription
 * active again), one that failed is a failed transaction and `past_due`; a refund is confirmed or
 * failed through confirmRefund (a refunded credits purchase gives its credits back there).
 */
export async function finishUsdcSend(prisma: DatabaseClient, send: UsdcSend, outcome: 'succeeded' | 'failed', failureReason?: string): Promise<boolean> {
  return runInTransaction(prisma, async (db) => {
    const moved = await db.usdcSend.updateMany({
      where: { id: send.id, status: { in: ['pending', 'signed'] } },
      data: { status: outcome, ...(failureReason ? { failureReason: failureReason.slice(0, 500) } : {}) },
    })
    if (moved.count === 0) return false
    const account = await db.account.findUniqueOrThrow({ where: { id: send.accountId } })
    const context = contextForAccount(db, account)
    if (send.kind === 'pull') {
      try {
        await settleInvoicePayment(context, send.invoiceId!, outcome)
      } catch (error) {
        // No longer open (paid by a transfer to its deposit address meanwhile, voided): the invoice is
        // not paid twice, but money that was pulled is money taken, so it is a succeeded transaction of
        // its own (CONTRACT §9: settled money is refundable through POST /v1/transactions/{id}/refund,
        // which sends it back to the payer through this send's transactionId).
        if (!(error instanceof DomainError) || error.code !== 'invalid_state') throw error
        if (outcome === 'failed') {
          await db.usdcSend.update({ where: { id: send.id }, data: { failureReason: (failureReason ?? 'failed').slice(0, 500) } })
          return true
        }
        const invoice = await db.invoice.findUniqueOrThrow({ where: { id: send.invoiceId! } })
        const pulled = await db.transaction.create({
          data: { id: createId('Transaction'), accountId: account.id, customerId: invoice.customerId, invoiceId: invoice.id, status: 'succeeded', amount: send.amount, currency: 'USDC', createdAt: context.clock.now() },
        })
        await recordEvent(context, 'transaction.succeeded', pulled)
        await db.usdcSend.update({
          where: { id: send.id },
          data: { transactionId: pulled.id, failureReason: `pulled after the invoice was ${invoice.status}: recorded as transaction ${pulled.id}, refundable` },
        })
        return true
      }
      if (outcome === 'succeeded') {
        const recorded = await db.transaction.findFirst({ where: { invoiceId: send.invoiceId!, status: 'succeeded' }, orderBy: { createdAt: 'desc' } })
        if (recorded) await db.usdcSend.update({ where: { id: send.id }, data: { transactionId: recorded.id } })
      }
      return true
    }
    const refund = await db.refund.findUniqueOrThrow({ where: { id: send.refundId! } })
    await confirmRefund(context, refund, outcome, failureReason)
    return true
  })
}
