import { createHash } from 'node:crypto'
import type { TransactionContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { idPrefixes } from '../../domain/createId'
import { formatAmount, type Decimal } from '../../domain/money'
import type { PixPayment, Transaction } from '../../generated/prisma/client'
import { confirmRefund } from '../../transactions/confirmRefund'
import { createPixClient } from './createPixClient'

/** The devolução id the PSP knows a refund by: the refund's id without its separator (`[a-zA-Z0-9]{1,35}`). */
export function devolucaoId(refundId: string): string {
  return refundId.replace(/[^A-Za-z0-9]/g, '')
}

/**
 * The id of the next refund of `piece` on one Pix: derived from the transaction, the Pix, how many
 * refunds it had and the amount, not random. The PSP call is made before our commit; when its answer
 * is lost (a timeout after the PSP acted) our row rolls back, and the retry then finds the same state,
 * derives the same id, and the PSP's `PUT …/devolucao/{id}` answers with the devolução it already has
 * instead of giving the money back twice. The caller holds the transaction's row lock, so the count
 * cannot move under it.
 */
async function derivedRefundId(context: TransactionContext, paid: Transaction, payment: PixPayment, piece: Decimal): Promise<string> {
  const earlier = await context.db.refund.count({ where: { providerReference: payment.endToEndId, rail: 'pix' } })
  const digest = createHash('sha256').update(`${paid.id}|${payment.endToEndId}|${earlier}|${formatAmount(piece, 'BRL')}`).digest('hex')
  return `${idPrefixes.Refund}_${digest.slice(0, 24)}`
}

/**
 * Asks the PSP for devoluções worth `amount`, taken from the Pix that paid the transaction in the
 * order they arrived (a Pix can give back at most what it brought). Each refund row is written and
 * its `PUT /pix/{e2eid}/devolucao/{id}` made inside the caller's transaction: a PSP that refuses or
 * cannot be reached rolls everything back, and the id is derived (derivedRefundId), so a retry after a
 * lost answer or a crash between the PUT and the commit asks for the same devolução, never a second.
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
          id: await derivedRefundId(context, paid, payment, piece),
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
