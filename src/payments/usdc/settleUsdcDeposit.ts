import { payCheckoutSession } from '../../checkout/payCheckoutSession'
import { contextForAccount, type Transaction } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { Prisma } from '../../generated/prisma/client'
import { settleInvoicePayment } from '../../invoices/settleInvoicePayment'

/**
 * Settles the payable of one deposit address once its confirmed transfers reach what is due, through
 * the same settle functions as every rail (exactly once: they move open → paid conditionally). Below
 * the amount due nothing settles (amountReceived shows it); a payable no longer payable (an expired
 * session, a paid invoice) keeps the transfers recorded and shown, never settled again. For
 * usdc_pull, the sender of the transfer that completed the payment becomes the subscription's payer.
 * Runs inside the caller's transaction (the one that recorded the transfers).
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
  try {
    if (deposit.checkoutSessionId) {
      const session = await db.checkoutSession.findUniqueOrThrow({ where: { id: deposit.checkoutSessionId } })
      if (session.status !== 'open' || received.lessThan(session.amount)) return
      const paid = await payCheckoutSession(context, session.id)
      if (paid.subscriptionId) await keepPayer(db, paid.subscriptionId, completing(session.amount)?.fromAddress)
    } else if (deposit.invoiceId) {
      const invoice = await db.invoice.findUniqueOrThrow({ where: { id: deposit.invoiceId } })
      if (invoice.status !== 'open' || received.lessThan(invoice.amountDue)) return
      await settleInvoicePayment(context, invoice.id, 'succeeded')
      await keepPayer(db, invoice.subscriptionId, completing(invoice.amountDue)?.fromAddress)
    }
  } catch (error) {
    // An expired or canceled session: the money is recorded and shown (refundable), nothing is sold.
    if (!(error instanceof DomainError) || error.code !== 'invalid_state') throw error
  }
}

async function keepPayer(db: Transaction, subscriptionId: string, payer: string | undefined): Promise<void> {
  if (!payer) return
  await db.subscription.updateMany({ where: { id: subscriptionId, paymentMethod: 'usdc_pull', usdcPayer: null }, data: { usdcPayer: payer } })
}
