import type { Database } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { logError } from '../../logging/log'

/** A job of the PIX worker, and the item it works on (an invoice id, a txid or an idRec). */
export interface PixWorkItem {
  accountId: string
  job: 'charge_invoice' | 'renew_charge' | 'remove_charge' | 'confirm_recurrence' | 'confirm_recurring_charge' | 'cancel_recurrence'
  subject: string
}

/**
 * Does one item of a worker job alone: its failure is logged and stops nothing else. The attempt is
 * recorded before the work (a crash in the middle counts too), and each job's batch query takes the
 * items tried longest ago first (`PixWorkAttempt`, never tried first of all), so an item the PSP keeps
 * refusing goes to the back of the queue instead of filling every batch. `work` says whether the item
 * is finished; then its record goes. True when the work succeeded. A PSP that cannot be reached is
 * not this item's failure: that error goes up, and ends the account's pass (runPixWork).
 */
export async function attemptPixWork(db: Database, item: PixWorkItem, work: () => Promise<boolean>): Promise<boolean> {
  // Real time, not the account's clock: only the order of attempts matters.
  const attemptedAt = new Date()
  const key = { job_subject: { job: item.job, subject: item.subject } }
  await db.pixWorkAttempt.upsert({ where: key, create: { ...item, attemptedAt }, update: { attemptedAt } })
  let finished: boolean
  try {
    finished = await work()
  } catch (error) {
    if (isPspUnreachable(error)) throw error
    logError(error)
    return false
  }
  if (finished) await db.pixWorkAttempt.deleteMany({ where: { job: item.job, subject: item.subject } })
  return true
}

/** The PSP is down, hangs past the client's timeout, or holds every call this process allows it (`unavailable`). */
export function isPspUnreachable(error: unknown): boolean {
  return error instanceof DomainError && error.code === 'unavailable'
}
