import type { DomainContext } from '../../domain/DomainContext'
import { attemptPixWork } from './attemptPixWork'
import { confirmPixRecurrence } from './confirmPixRecurrence'
import { confirmPixRecurringCharge } from './confirmPixRecurringCharge'
import type { PixClient } from './PixClient'

const batchSize = 100

/**
 * The backstop for `webhookrec`/`webhookcobr` callbacks that never came: every recurrence still
 * waiting for the payer (`GET /rec/{idRec}`) and every recurring charge without an outcome
 * (`GET /cobr/{txid}`), least recently tried first, confirmed as a callback would be (so seen both
 * ways it still counts once). Each alone (attemptPixWork): one the PSP answers with an error is
 * logged and tried again on a later pass, after the others.
 */
export async function reconcilePixAutomatico(context: DomainContext, client: PixClient): Promise<void> {
  const accountId = context.account.id
  const waiting = await context.db.$queryRaw<{ idRec: string }[]>`
    SELECT r."idRec" FROM "PixRecurrence" r
    LEFT JOIN "PixWorkAttempt" a ON a.job = 'confirm_recurrence' AND a.subject = r."idRec"
    WHERE r."accountId" = ${accountId} AND r.status = 'CRIADA'
    ORDER BY a."attemptedAt" ASC NULLS FIRST, r."updatedAt" ASC
    LIMIT ${batchSize}`
  for (const { idRec } of waiting) {
    await attemptPixWork(context.db, { accountId, job: 'confirm_recurrence', subject: idRec }, async () => (await confirmPixRecurrence(context, client, idRec))?.status !== 'CRIADA')
  }
  const open = await context.db.$queryRaw<{ txid: string }[]>`
    SELECT c.txid FROM "PixRecurringCharge" c
    LEFT JOIN "PixWorkAttempt" a ON a.job = 'confirm_recurring_charge' AND a.subject = c.txid
    WHERE c."accountId" = ${accountId} AND c.outcome IS NULL
    ORDER BY a."attemptedAt" ASC NULLS FIRST, c."updatedAt" ASC
    LIMIT ${batchSize}`
  for (const { txid } of open) {
    await attemptPixWork(context.db, { accountId, job: 'confirm_recurring_charge', subject: txid }, async () => (await confirmPixRecurringCharge(context, client, txid))?.outcome !== null)
  }
}
