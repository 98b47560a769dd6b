import type { DomainContext } from '../../domain/DomainContext'
import type { PixProvider } from '../../generated/prisma/client'
import { attemptPixWork } from './attemptPixWork'
import { createPixClient } from './createPixClient'

const batchSize = 50

/**
 * Canceling a subscription cancels its recurrence at the PSP (`PATCH /rec/{idRec}` `CANCELADA`), so
 * the payer's bank charges nothing more. Done by the worker after the cancellation committed (a PSP
 * that is down never blocks a cancellation; the next pass retries), for every recurrence still live
 * whose subscription is canceled, least recently tried first (attemptPixWork: one the PSP keeps
 * refusing holds back no other). A PSP that says it already ended is taken at its word via GET.
 */
export async function cancelPixRecurrences(context: DomainContext, provider: PixProvider): Promise<void> {
  const accountId = context.account.id
  const rows = await context.db.$queryRaw<{ idRec: string }[]>`
    SELECT r."idRec" FROM "PixRecurrence" r
    JOIN "Subscription" s ON s.id = r."subscriptionId"
    LEFT JOIN "PixWorkAttempt" a ON a.job = 'cancel_recurrence' AND a.subject = r."idRec"
    WHERE r."accountId" = ${accountId} AND r.status IN ('CRIADA', 'APROVADA') AND s.status = 'canceled'
    ORDER BY a."attemptedAt" ASC NULLS FIRST, r."updatedAt" ASC
    LIMIT ${batchSize}`
  if (rows.length === 0) return
  const client = createPixClient(provider)
  try {
    for (const { idRec } of rows) {
      await attemptPixWork(context.db, { accountId, job: 'cancel_recurrence', subject: idRec }, async () => {
        const answer = await client.call<{ status?: unknown }>('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' }).catch(async (error: unknown) => {
          // Refused because it already ended (rejected, expired, canceled by the payer): read what it is.
          const read = await client.call<{ status?: unknown }>('GET', `/rec/${idRec}`)
          if (read.status === 'CRIADA' || read.status === 'APROVADA') throw error
          return read
        })
        const status = typeof answer.status === 'string' ? answer.status : 'CANCELADA'
        await context.db.pixRecurrence.update({ where: { idRec }, data: { status, updatedAt: context.clock.now() } })
        return true
      })
    }
  } finally {
    client.close()
  }
}
