import type { DomainContext } from '../../domain/DomainContext'
import { inTransaction } from '../../domain/DomainContext'
import { confirmRefund } from '../../transactions/confirmRefund'
import type { PixClient } from './PixClient'
import { devolucaoId } from './requestPixRefunds'

/**
 * Reads one Pix (`GET /pix/{e2eid}`) and applies the final status of each of our pending devoluções
 * on it: DEVOLVIDO confirms the refund, NAO_REALIZADO fails it. The PSP's answer, not a callback's
 * body, decides.
 */
export async function confirmPixRefunds(context: DomainContext, client: PixClient, endToEndId: string): Promise<number> {
  const pending = await context.db.refund.findMany({ where: { accountId: context.account.id, rail: 'pix', providerReference: endToEndId, status: 'pending' } })
  if (pending.length === 0) return 0
  const pix = await client.call<{ endToEndId?: unknown; devolucoes?: unknown }>('GET', `/pix/${endToEndId}`)
  const devolucoes = Array.isArray(pix.devolucoes) ? (pix.devolucoes as { id?: unknown; status?: unknown; motivo?: unknown }[]) : []
  let confirmed = 0
  await inTransaction(context, async (transaction) => {
    for (const refund of pending) {
      const answer = devolucoes.find((devolucao) => devolucao?.id === devolucaoId(refund.id))
      if (answer?.status === 'DEVOLVIDO' && (await confirmRefund(transaction, refund, 'succeeded'))) confirmed += 1
      if (answer?.status === 'NAO_REALIZADO') await confirmRefund(transaction, refund, 'failed', typeof answer.motivo === 'string' ? answer.motivo : 'NAO_REALIZADO')
    }
  })
  return confirmed
}
