import type pg from 'pg'
import { logError } from '../logging/log'

/**
 * Per-key request limit over one-second windows, shared by every server process through PostgreSQL
 * (RateLimitWindow). Deciding must not cost a database round trip on the hot paths, so each process
 * decides from the window's count as last synchronised plus its own requests since, and pushes its
 * counts (and reads the total back) every `syncMilliseconds` in one statement. A key can therefore
 * exceed its limit by at most what the processes admit between two synchronisations.
 */
export class RateLimiter {
  /** shared: the window's total as last read; sending: counted here, being pushed; pending: counted here since. */
  private readonly windows = new Map<string, { windowStart: number; shared: number; sending: number; pending: number }>()
  /** Every key's count in the current window, as of the last sync (keys this process has not served yet too). */
  private sharedCounts = { windowStart: 0, counts: new Map<string, number>() }
  private readonly timer: NodeJS.Timeout | undefined
  private syncing: Promise<void> | undefined
  private failing = false
  private lastAdmission = 0

  constructor(
    private readonly pool: pg.Pool,
    private readonly limitPerSecond: number,
    private readonly syncMilliseconds = 50,
  ) {
    if (limitPerSecond > 0) {
      this.timer = setInterval(() => void this.sync(false), syncMilliseconds)
      this.timer.unref()
    }
  }

  /** Counts the request; answers how long to wait when the key is over its limit. */
  admit(keyId: string, now = Date.now()): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    if (this.limitPerSecond <= 0) return { allowed: true }
    const windowStart = Math.floor(now / 1000) * 1000
    let window = this.windows.get(keyId)
    if (!window || window.windowStart !== windowStart) {
      const shared = this.sharedCounts.windowStart === windowStart ? (this.sharedCounts.counts.get(keyId) ?? 0) : 0
      window = { windowStart, shared, sending: 0, pending: 0 }
      this.windows.set(keyId, window)
    }
    if (window.shared + window.sending + window.pending >= this.limitPerSecond) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000)) }
    }
    window.pending += 1
    this.lastAdmission = now
    return { allowed: true }
  }

  /** Pushes this process's counts and reads back each window's total (every process's). */
  sync(evenWhenIdle = true): Promise<void> {
    this.syncing ??= this.push(evenWhenIdle).finally(() => {
      this.syncing = undefined
    })
    return this.syncing
  }

  private async push(evenWhenIdle: boolean): Promise<void> {
    // An idle process has nothing to push, and reads the totals again with its next request's sync.
    if (!evenWhenIdle && Date.now() - this.lastAdmission > 2000 && [...this.windows.values()].every((window) => window.pending === 0)) return
    const current = Math.floor(Date.now() / 1000) * 1000
    const batch = [...this.windows.entries()].filter(([, window]) => window.windowStart === current || window.pending > 0)
    for (const [keyId, window] of this.windows) if (window.windowStart < current && window.pending === 0) this.windows.delete(keyId)
    const sent = batch.map(([keyId, window]) => ({ keyId, windowStart: window.windowStart, pending: window.pending }))
    for (const [, window] of batch) {
      window.sending += window.pending
      window.pending = 0
    }
    try {
      if (sent.some((item) => item.pending > 0)) {
        await this.pool.query(
          `INSERT INTO "RateLimitWindow" ("keyId", "windowStart", "count")
           SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS pushed(key_id, window_start, pending) WHERE pending > 0
           ON CONFLICT ("keyId", "windowStart") DO UPDATE SET "count" = "RateLimitWindow"."count" + EXCLUDED."count"`,
          [sent.map((item) => item.keyId), sent.map((item) => new Date(item.windowStart)), sent.map((item) => item.pending)],
        )
      }
      // Every key's total in this window, so that a key this process has not served yet starts from it.
      const result = await this.pool.query<{ keyId: string; windowStart: Date; count: number }>(
        `SELECT "keyId", "windowStart", "count" FROM "RateLimitWindow" WHERE "windowStart" = $1`,
        [new Date(current)],
      )
      this.sharedCounts = { windowStart: current, counts: new Map(result.rows.map((row) => [row.keyId, row.count])) }
      for (const [keyId, window] of batch) {
        // The total read includes what was just pushed.
        window.sending = 0
        if (window.windowStart === current) window.shared = this.sharedCounts.counts.get(keyId) ?? window.shared
      }
      this.failing = false
    } catch (error) {
      // Counts that could not be pushed are pushed with the next sync; the limit fails open meanwhile.
      for (const [, window] of batch) {
        window.pending += window.sending
        window.sending = 0
      }
      if (!this.failing) logError(error)
      this.failing = true
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    // A last push of the counts; at shutdown the database may already be going, which is no news.
    this.failing = true
    await this.sync().catch(() => undefined)
  }
}

/** Windows older than a minute are of no use to anyone. */
export async function removeOldRateLimitWindows(pool: pg.Pool): Promise<void> {
  await pool.query(`DELETE FROM "RateLimitWindow" WHERE "windowStart" < now() - interval '1 minute'`)
}
