import type { Clock, Database } from '../../domain/DomainContext'

/**
 * An item the PIX worker still fails on is tried again at every pass that reaches it, which moves its
 * `attemptedAt`; a record untouched this long belongs to an item that was finished elsewhere (a
 * recurrence confirmed by its callback, an invoice paid another way, an account gone) and is only
 * weight. Removing it changes no order: nothing selects its item any more.
 */
export const pixWorkAttemptRetentionMilliseconds = 7 * 24 * 60 * 60 * 1000

export async function removeStalePixWorkAttempts(db: Database, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - pixWorkAttemptRetentionMilliseconds)
  const removed = await db.pixWorkAttempt.deleteMany({ where: { attemptedAt: { lt: cutoff } } })
  return removed.count
}
