import type { DomainContext } from '../../domain/DomainContext'
import { confirmPixRecurrence } from './confirmPixRecurrence'
import { confirmPixRecurringCharge } from './confirmPixRecurringCharge'
import type { PixClient } from './PixClient'

const batchSize = 100

/**
 * The backstop for `webhookrec`/`webhookcobr` callbacks that never came: every recurrence still
 * waiting for the payer (`GET /rec/{idRec}`) and every recurring charge without an outcome
 * (`GET /cobr/{txid}`), least recently confirmed first, confirmed as a callback would be (so seen both
 * ways it still counts once).
 */
export async function reconcilePixAutomatico(context: DomainContext, client: PixClient): Promise<void> {
  const waiting = await context.db.pixRecurrence.findMany({ where: { accountId: context.account.id, status: 'CRIADA' }, orderBy: { updatedAt: 'asc' }, take: batchSize, select: { idRec: true } })
  for (const { idRec } of waiting) await confirmPixRecurrence(context, client, idRec)
  const open = await context.db.pixRecurringCharge.findMany({ where: { accountId: context.account.id, outcome: null }, orderBy: { updatedAt: 'asc' }, take: batchSize, select: { txid: true } })
  for (const { txid } of open) await confirmPixRecurringCharge(context, client, txid)
}
