import type { DomainContext } from '../../domain/DomainContext'
import { logError } from '../../logging/log'
import type { PixProvider } from '../../generated/prisma/client'
import { createPixClient } from './createPixClient'

const batchSize = 50

/**
 * Canceling a subscription cancels its recurrence at the PSP (`PATCH /rec/{idRec}` `CANCELADA`), so
 * the payer's bank charges nothing more. Done by the worker after the cancellation committed (a PSP
 * that is down never blocks a cancellation; the next pass retries), for every recurrence still live
 * whose subscription is canceled. A PSP that says it already ended is taken at its word via GET.
 */
export async function cancelPixRecurrences(context: DomainContext, provider: PixProvider): Promise<void> {
  const live = await context.db.pixRecurrence.findMany({ where: { accountId: context.account.id, status: { in: ['CRIADA', 'APROVADA'] } }, select: { idRec: true, subscriptionId: true } })
  if (live.length === 0) return
  const canceled = await context.db.subscription.findMany({ where: { id: { in: live.map((recurrence) => recurrence.subscriptionId) }, status: 'canceled' }, select: { id: true }, take: batchSize })
  if (canceled.length === 0) return
  const client = createPixClient(provider)
  try {
    for (const { idRec } of live.filter((recurrence) => canceled.some((subscription) => subscription.id === recurrence.subscriptionId))) {
      try {
        const answer = await client.call<{ status?: unknown }>('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' }).catch(async (error: unknown) => {
          // Refused because it already ended (rejected, expired, canceled by the payer): read what it is.
          const read = await client.call<{ status?: unknown }>('GET', `/rec/${idRec}`)
          if (read.status === 'CRIADA' || read.status === 'APROVADA') throw error
          return read
        })
        const status = typeof answer.status === 'string' ? answer.status : 'CANCELADA'
        await context.db.pixRecurrence.update({ where: { idRec }, data: { status, updatedAt: context.clock.now() } })
      } catch (error) {
        logError(error)
      }
    }
  } finally {
    client.close()
  }
}
