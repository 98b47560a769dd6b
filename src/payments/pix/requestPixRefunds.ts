import type { TransactionContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { createId } from '../../domain/createId'
import { formatAmount, type Decimal } from '../../domain/money'
import type { PixPayment, Transaction } from '../../generated/prisma/client'
import { confirmRefund } from '../../transactions/confirmRefund'
import { createPixClient } from './createPixClient'

/** The devolução id the PSP knows a refund by: the refund's id without its separator (`[a-zA-Z0-9]{1,35}`). */
export function devolucaoId(refundId: string): string {
  return refundId.replace(/[^A-Za-z0-9]/g, '')
}

/**
 * Asks the PSP for devoluções worth `amount`, taken from the Pix that paid the transaction in the
 * order they arrived (a Pix can give back at most what it brought). Each refund row is written and
 * its `PUT /pix/{e2eid}/devolucao/{id}` made inside the caller's transaction: a PSP that refuses or
 * cannot be reached rolls everything back, and the id is the refund's own, so a retry after a crash
 * between the PUT and the commit cannot ask twice for the same money under another id.
 */
export async function requestPixRefunds(context: TransactionContext, paid: Transaction, payments: PixPayment[], amount: Decimal): Promise<void> {
  const provider = await context.db.pixProvider.findUnique({ where: { accountId: context.account.id } })
  if (!provider) throw new DomainError('invalid_state', 'This account has no PIX provider any more: configure it to refund', { param: 'id' })
  const client = createPixClient(provider)
  try {
    let remaining = amount
    for (const payment of payments) {
      if (remaining.lessThanOrEqualTo(0)) break
      const asked = await context.db.refund.aggregate({ where: { providerReference: payment.endToEndId, rail: 'pix', status: { not: 'failed' } }, _sum: { amount: true } })
      const available = payment.amount.minus(asked._sum.amount ?? 0)
      if (available.lessThanOrEqualTo(0)) continue
      const piece = available.lessThan(remaining) ? available : remaining
      const refund = await context.db.refund.create({
        data: {
          id: createId('Refund'),
          accountId: context.account.id,
          transactionId: paid.id,
          rail: 'pix',
          providerReference: payment.endToEndId,
          amount: piece,
          status: 'pending',
          createdAt: context.clock.now(),
        },
      })
      const answer = await client.call<{ status?: unknown }>('PUT', `/pix/${payment.endToEndId}/devolucao/${devolucaoId(refund.id)}`, {
        valor: formatAmount(piece, 'BRL'),
        natureza: 'ORIGINAL',
        descricao: `Reembolso ${paid.id}`.slice(0, 140),
      })
      if (answer.status === 'DEVOLVIDO') await confirmRefund(context, refund, 'succeeded')
      remaining = remaining.minus(piece)
    }
    if (remaining.greaterThan(0)) throw new DomainError('invalid_state', 'The Pix that paid this transaction cannot give back that much', { param: 'amount' })
  } finally {
    client.close()
  }
}
