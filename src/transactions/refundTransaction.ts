import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { createId } from '../domain/createId'
import { parseAmount, type Currency } from '../domain/money'
import type { Transaction } from '../generated/prisma/client'
import { requestPixRefunds } from '../payments/pix/requestPixRefunds'
import { requestUsdcRefund } from '../payments/usdc/requestUsdcRefund'
import { confirmRefund } from './confirmRefund'
import { getTransaction } from './getTransaction'

/**
 * Asks the transaction's provider to give money back (CONTRACT §9): by default all that is neither
 * refunded nor already asked for. The refund counts only once the provider confirms it (see
 * confirmRefund). PIX: a devolução per Pix that paid it. USDC: a transfer from the signer to the payer
 * (requestUsdcRefund). A test account's sandbox payment (no
 * provider took it) is refunded at once, as the sandbox settles everything else.
 */
export async function refundTransaction(context: DomainContext, transactionId: string, amountText: string | null | undefined): Promise<Transaction> {
  return inTransaction(context, async (transaction) => {
    const { db } = transaction
    await db.$queryRaw`SELECT id FROM "Transaction" WHERE id = ${transactionId} FOR UPDATE`
    const paid = await getTransaction(transaction, transactionId, 'id')
    if (paid.status !== 'succeeded') throw new DomainError('invalid_state', `This transaction is ${paid.status} and cannot be refunded`, { param: 'id' })
    const asked = await db.refund.aggregate({ where: { transactionId: paid.id, status: 'pending' }, _sum: { amount: true } })
    const refundable = paid.amount.minus(paid.amountRefunded).minus(asked._sum.amount ?? 0)
    const amount = amountText == null ? refundable : parseAmount(amountText, paid.currency as Currency, 'amount')
    if (amount.lessThanOrEqualTo(0)) throw new DomainError(amountText == null ? 'invalid_state' : 'validation_error', 'Nothing is left to refund', { param: 'amount' })
    if (amount.greaterThan(refundable)) {
      throw new DomainError('validation_error', `At most ${refundable.toFixed(paid.currency === 'BRL' ? 2 : 6)} can still be refunded`, { param: 'amount' })
    }
    const pixPayments = await db.pixPayment.findMany({ where: { transactionId: paid.id, accountId: transaction.account.id }, orderBy: { paidAt: 'asc' } })
    if (pixPayments.length > 0) {
      await requestPixRefunds(transaction, paid, pixPayments, amount)
    } else if (await requestUsdcRefund(transaction, paid, amount)) {
      // Sent by the signer from the watcher loop after this commits; counted when confirmed.
    } else if (transaction.account.mode === 'test') {
      const refund = await db.refund.create({
        data: { id: createId('Refund'), accountId: transaction.account.id, transactionId: paid.id, rail: 'sandbox', providerReference: paid.id, amount, status: 'pending', createdAt: transaction.clock.now() },
      })
      await confirmRefund(transaction, refund, 'succeeded')
    } else {
      throw new DomainError('invalid_state', 'No payment provider took this transaction, so none can refund it', { param: 'id' })
    }
    return db.transaction.findUniqueOrThrow({ where: { id: paid.id } })
  })
}
