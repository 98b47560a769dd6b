import { inTransaction, type DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { logError } from '../../logging/log'
import { Prisma, type PixRecurringCharge } from '../../generated/prisma/client'
import { settleInvoicePayment } from '../../invoices/settleInvoicePayment'
import { readPixList } from './confirmPixCharge'
import type { PixClient } from './PixClient'
import { addDays, saoPauloDate } from './saoPauloDate'

interface CobrAnswer {
  txid?: unknown
  idRec?: unknown
  status?: unknown
  tentativas?: unknown
  pix?: unknown
}

const cobrStatuses = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA']
const maxRetries = 3
const retryWindowDays = 7

/**
 * What the PSP says of one recurring charge, read from `GET /cobr/{txid}` (never from a callback's
 * body), recorded exactly once: the row is locked, each Pix is inserted under its endToEndId, and the
 * outcome is written once in the same transaction. Paid in full → the invoice is paid through
 * settleInvoicePayment; finally rejected or expired → a failed transaction and past_due
 * (settleInvoicePayment 'failed'); the invoice then stays open and the worker gives it an ordinary cob.
 * A rejected attempt with the recurrence's policy allowing it (PERMITE_3R_7D) asks the PSP for a retry
 * on the next day, at most 3 within 7 days of the due date.
 */
export async function confirmPixRecurringCharge(context: DomainContext, client: PixClient, txid: string): Promise<PixRecurringCharge | null> {
  const known = await context.db.pixRecurringCharge.findFirst({ where: { txid, accountId: context.account.id } })
  if (!known) return null
  const cobr = await client.call<CobrAnswer>('GET', `/cobr/${txid}`)
  if (cobr.txid !== txid || cobr.idRec !== known.idRec || typeof cobr.status !== 'string' || !cobrStatuses.includes(cobr.status)) {
    throw new DomainError('provider_error', 'The PIX provider answered for another recurring charge, or with an unknown status')
  }
  const status = cobr.status
  const confirmed = readPixList(cobr.pix)
  const attempts = Array.isArray(cobr.tentativas) ? (cobr.tentativas as { status?: unknown }[]) : []
  const awaitingRetry = status === 'ATIVA' && attempts.length > 0 && attempts.every((attempt) => attempt?.status !== 'AGENDADA' && attempt?.status !== 'SOLICITADA') && attempts.at(-1)?.status === 'REJEITADA'
  return inTransaction(context, async (transaction) => {
    const { db } = transaction
    await db.$queryRaw`SELECT txid FROM "PixRecurringCharge" WHERE txid = ${txid} FOR UPDATE`
    const now = transaction.clock.now()
    for (const pix of confirmed) {
      await db.pixPayment.createMany({
        data: { endToEndId: pix.endToEndId, accountId: transaction.account.id, txid, amount: new Prisma.Decimal(pix.valor), paidAt: pix.horario, createdAt: now },
        skipDuplicates: true,
      })
    }
    const received = await db.pixPayment.aggregate({ where: { txid, accountId: transaction.account.id }, _sum: { amount: true } })
    const amountReceived = received._sum.amount ?? new Prisma.Decimal(0)
    let charge = await db.pixRecurringCharge.update({ where: { txid }, data: { status, amountReceived, updatedAt: now } })
    if (charge.outcome === null) {
      const invoice = await db.invoice.findUniqueOrThrow({ where: { id: charge.invoiceId } })
      let outcome: string | null = null
      if (amountReceived.greaterThanOrEqualTo(charge.amount)) {
        if (invoice.status === 'open') await settleInvoicePayment(transaction, invoice.id, 'succeeded')
        outcome = 'settled'
      } else if (status === 'REJEITADA' || status === 'EXPIRADA') {
        if (invoice.status === 'open') await settleInvoicePayment(transaction, invoice.id, 'failed')
        outcome = 'failed'
      } else if (status === 'CANCELADA') {
        outcome = 'canceled'
      }
      if (outcome) charge = await db.pixRecurringCharge.update({ where: { txid }, data: { outcome } })
    }
    if (charge.outcome === 'settled') {
      const settledBy = await db.transaction.findFirst({ where: { invoiceId: charge.invoiceId, accountId: transaction.account.id, status: { in: ['succeeded', 'refunded'] } }, orderBy: { createdAt: 'desc' } })
      if (settledBy) await db.pixPayment.updateMany({ where: { txid, transactionId: null }, data: { transactionId: settledBy.id } })
    }
    if (charge.outcome === null && awaitingRetry && charge.retriesRequested < maxRetries) {
      // The PSP's calendar is real time (like reconciliation's window), whatever the account's clock says.
      const retryOn = addDays(saoPauloDate(new Date()), 1)
      const recurrence = await db.pixRecurrence.findUnique({ where: { idRec: charge.idRec } })
      const lastDay = addDays(charge.dueDate.toISOString().slice(0, 10), retryWindowDays)
      if (recurrence?.retryPolicy === 'PERMITE_3R_7D' && retryOn <= lastDay) {
        try {
          await client.call('POST', `/cobr/${txid}/retentativa/${retryOn}`)
          charge = await db.pixRecurringCharge.update({ where: { txid }, data: { retriesRequested: { increment: 1 } } })
        } catch (error) {
          // Refused (e.g. a retry is already scheduled): the charge's next confirmation decides again.
          if (!(error instanceof DomainError)) throw error
          logError(error)
        }
      }
    }
    return charge
  })
}
