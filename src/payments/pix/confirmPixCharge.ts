import { payCheckoutSession } from '../../checkout/payCheckoutSession'
import { inTransaction, type DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { Prisma, type PixCharge } from '../../generated/prisma/client'
import { settleInvoicePayment } from '../../invoices/settleInvoicePayment'
import type { PixClient } from './PixClient'

export interface ConfirmedPix {
  endToEndId: string
  valor: string
  horario: Date
}

const endToEndIdPattern = /^[A-Za-z0-9]{32}$/
const amountPattern = /^\d{1,10}\.\d{2}$/

/**
 * What the PSP says was paid into one charge, read from `GET /cob/{txid}` (never from a callback's
 * body, which anyone could forge), recorded and settled exactly once. Each Pix is inserted under its
 * endToEndId (the primary key), and the charge row is locked first, so the same payment seen twice,
 * by the callback and reconciliation, or by two processes at once counts once. When what was received
 * reaches the amount due, the session or invoice settles through its one settle function and every
 * payment of the charge is linked to the transaction that records it (refunds go back through them).
 * Less than due settles nothing and stays visible as `amountReceived`; more settles and stays visible.
 */
export async function confirmPixCharge(context: DomainContext, client: PixClient, txid: string): Promise<PixCharge | null> {
  const known = await context.db.pixCharge.findFirst({ where: { txid, accountId: context.account.id } })
  if (!known) return null
  const cob = await client.call<{ txid?: unknown; status?: unknown; pix?: unknown }>('GET', `/cob/${txid}`)
  if (cob.txid !== txid) throw new DomainError('provider_error', 'The PIX provider answered for another charge')
  const confirmed = readPixList(cob.pix)
  return inTransaction(context, async (transaction) => {
    const { db } = transaction
    await db.$queryRaw`SELECT txid FROM "PixCharge" WHERE txid = ${txid} FOR UPDATE`
    const now = transaction.clock.now()
    for (const pix of confirmed) {
      await db.pixPayment.createMany({
        data: { endToEndId: pix.endToEndId, accountId: transaction.account.id, txid, amount: new Prisma.Decimal(pix.valor), paidAt: pix.horario, createdAt: now },
        skipDuplicates: true,
      })
    }
    const received = await db.pixPayment.aggregate({ where: { txid, accountId: transaction.account.id }, _sum: { amount: true } })
    const amountReceived = received._sum.amount ?? new Prisma.Decimal(0)
    let charge = await db.pixCharge.update({ where: { txid }, data: { amountReceived } })
    if (charge.status === 'active' && amountReceived.greaterThanOrEqualTo(charge.amount)) {
      const transactionId = await settlePayable(transaction, charge)
      if (transactionId) {
        charge = await db.pixCharge.update({ where: { txid }, data: { status: 'settled' } })
      }
    }
    if (charge.status === 'settled') {
      const settledBy = await settlingTransactionId(transaction, charge)
      if (settledBy) await db.pixPayment.updateMany({ where: { txid, transactionId: null }, data: { transactionId: settledBy } })
    }
    return charge
  })
}

/** Settles the session or invoice; null when it can no longer be (canceled, voided): the money stays visible and refundable. */
async function settlePayable(context: DomainContext, charge: PixCharge): Promise<string | null> {
  try {
    if (charge.checkoutSessionId) {
      await payCheckoutSession(context, charge.checkoutSessionId, { confirmedByProvider: true })
    } else if (charge.invoiceId) {
      const invoice = await context.db.invoice.findUniqueOrThrow({ where: { id: charge.invoiceId } })
      if (invoice.status !== 'open') return null
      await settleInvoicePayment(context, charge.invoiceId, 'succeeded')
    }
  } catch (error) {
    if (error instanceof DomainError && error.code === 'invalid_state') return null
    throw error
  }
  return settlingTransactionId(context, charge)
}

async function settlingTransactionId(context: DomainContext, charge: PixCharge): Promise<string | null> {
  const where = charge.checkoutSessionId ? { checkoutId: charge.checkoutSessionId } : { invoiceId: charge.invoiceId!, status: { in: ['succeeded' as const, 'refunded' as const] } }
  const transaction = await context.db.transaction.findFirst({ where: { ...where, accountId: context.account.id }, orderBy: { createdAt: 'desc' } })
  return transaction?.id ?? null
}

/** The Pix of a cob as the PSP lists them; anything malformed is the PSP's error, not a payment. */
export function readPixList(value: unknown): ConfirmedPix[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new DomainError('provider_error', 'The PIX provider answered with a malformed pix list')
  return value.map((item: unknown) => {
    const pix = (item ?? {}) as { endToEndId?: unknown; valor?: unknown; horario?: unknown }
    const horario = typeof pix.horario === 'string' ? new Date(pix.horario) : new Date(Number.NaN)
    if (typeof pix.endToEndId !== 'string' || !endToEndIdPattern.test(pix.endToEndId) || typeof pix.valor !== 'string' || !amountPattern.test(pix.valor) || Number.isNaN(horario.getTime())) {
      throw new DomainError('provider_error', 'The PIX provider answered with a malformed Pix')
    }
    return { endToEndId: pix.endToEndId, valor: pix.valor, horario }
  })
}
