import { payCheckoutSession } from '../../checkout/payCheckoutSession'
import { contextForAccount, type Transaction } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { Prisma } from '../../generated/prisma/client'
import { settleInvoicePayment } from '../../invoices/settleInvoicePayment'
import { recordUnappliedUsdcTransfers } from './recordUnappliedUsdcTransfers'

/**
 * Settles the payable of one deposit address once its confirmed transfers reach what is due, through
 * the same settle functions as every rail (exactly once: they move open → paid conditionally). Below
 * the amount due nothing settles (amountReceived shows it); a payable no longer payable (an expired
 * session, a paid invoice) is never settled again, and money beyond what its payment records (an
 * excess, a late transfer) becomes a refundable transaction of its own (recordUnappliedUsdcTransfers).
 * For usdc_pull, the sender of the transfer that completed the payment becomes the subscription's
 * payer. Runs inside the caller's transaction (the one that recorded the transfers).
 */
export async function settleUsdcDeposit(db: Transaction, depositAddressId: string): Promise<void> {
  const deposit = await db.usdcDepositAddress.findUniqueOrThrow({ where: { id: depositAddressId } })
  const transfers = await db.usdcTransfer.findMany({ where: { depositAddressId }, orderBy: [{ blockNumber: 'asc' }, { transactionHash: 'asc' }, { logPosition: 'asc' }] })
  const received = transfers.reduce((sum, transfer) => sum.plus(transfer.amount), new Prisma.Decimal(0))
  const account = await db.account.findUniqueOrThrow({ where: { id: deposit.accountId } })
  const context = contextForAccount(db, account)
  const completing = (due: Prisma.Decimal) => {
    let sum = new Prisma.Decimal(0)
    return transfers.find((transfer) => (sum = sum.plus(transfer.amount)).greaterThanOrEqualTo(due))
  }
  // The payment records the transfers that add up to at most what was due; the part of the due the
  // next transfer (the one that went past it) completed is what recordUnappliedUsdcTransfers leaves
  // out of the excess it records.
  let completed: { transactionId: string; amount: Prisma.Decimal } | undefined
  const recordIn = async (transactionId: string | undefined, due: Prisma.Decimal) => {
    if (!transactionId) return
    let sum = new Prisma.Decimal(0)
    const applied = transfers.filter((transfer) => (sum = sum.plus(transfer.amount)).lessThanOrEqualTo(due))
    await db.usdcTransfer.updateMany({ where: { id: { in: applied.map((transfer) => transfer.id) }, transactionId: null }, data: { transactionId } })
    const recorded = applied.reduce((total, transfer) => total.plus(transfer.amount), new Prisma.Decimal(0))
    completed = { transactionId, amount: due.minus(recorded) }
  }
  try {
    if (deposit.checkoutSessionId) {
      const session = await db.checkoutSession.findUniqueOrThrow({ where: { id: deposit.checkoutSessionId } })
      if (session.status === 'open' && received.greaterThanOrEqualTo(session.amount)) {
        const paid = await payCheckoutSession(context, session.id)
        await recordIn((await db.transaction.findUnique({ where: { checkoutId: session.id } }))?.id, session.amount)
        if (paid.subscriptionId) await keepPayer(db, paid.subscriptionId, completing(session.amount)?.fromAddress)
      }
    } else if (deposit.invoiceId) {
      const invoice = await db.invoice.findUniqueOrThrow({ where: { id: deposit.invoiceId } })
      if (invoice.status === 'open' && received.greaterThanOrEqualTo(invoice.amountDue)) {
        await settleInvoicePayment(context, invoice.id, 'succeeded')
        const payment = await db.transaction.findFirst({ where: { invoiceId: invoice.id, status: 'succeeded' }, orderBy: { createdAt: 'desc' } })
        await recordIn(payment?.id, invoice.amountDue)
        await keepPayer(db, invoice.subscriptionId, completing(invoice.amountDue)?.fromAddress)
      }
    }
  } catch (error) {
    // An expired or canceled session: nothing is sold; the money becomes a refundable transaction below.
    if (!(error instanceof DomainError) || error.code !== 'invalid_state') throw error
  }
  await recordUnappliedUsdcTransfers(db, depositAddressId, completed)
}

async function keepPayer(db: Transaction, subscriptionId: string, payer: string | undefined): Promise<void> {
  if (!payer) return
  await db.subscription.updateMany({ where: { id: subscriptionId, paymentMethod: 'usdc_pull', usdcPayer: null }, data: { usdcPayer: payer } })
}
