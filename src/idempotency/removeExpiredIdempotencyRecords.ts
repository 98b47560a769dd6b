import type { Clock, Database } from '../domain/DomainContext'

/** CONTRACT §3 keeps keys at least 24 hours; this removes what is older. Returns how many went. */
export const idempotencyRetentionMilliseconds = 24 * 60 * 60 * 1000

export async function removeExpiredIdempotencyRecords(db: Database, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - idempotencyRetentionMilliseconds)
  const removed = await db.idempotencyRecord.deleteMany({ where: { createdAt: { lt: cutoff } } })
  return removed.count
}
