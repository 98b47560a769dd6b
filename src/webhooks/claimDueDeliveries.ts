import { randomUUID } from 'node:crypto'
import type pg from 'pg'

/** One attempt this process now owns, with everything needed to send it. */
export interface ClaimedDelivery {
  id: string
  leaseToken: string
  /** This attempt's number: 1 for the first. */
  attempt: number
  accountMode: 'test' | 'live'
  endpointId: string
  url: string
  secret: string
  previousSecret: string | null
  previousSecretExpiresAt: Date | null
  event: { id: string; type: string; createdAt: Date; data: unknown }
}

export interface ClaimRequest {
  /** At most this many in all. */
  limit: number
  /** How many more this process may send to each endpoint (absent: `perEndpointLimit`). */
  freeSlots: (endpointId: string) => number
  leaseMs: number
}

/**
 * Claims due attempts so that each is sent by one process: candidates are locked with FOR UPDATE
 * SKIP LOCKED (another process skips them), and the chosen ones get a lease (nextAttemptAt moved past
 * the attempt's longest duration, a fresh leaseToken, the attempt counted) before the locks go. A
 * process that reads them after the commit sees them not due; one that read them before re-checks
 * the row when it gets the lock (PostgreSQL re-evaluates the condition) and skips it too. Candidates
 * for endpoints without free slots here are left for later or for other processes.
 */
export async function claimDueDeliveries(pool: pg.Pool, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const candidates = await client.query<{ id: string; endpointId: string }>(
      `SELECT delivery.id, delivery."endpointId" FROM "WebhookDelivery" delivery
       JOIN "WebhookEndpoint" endpoint ON endpoint.id = delivery."endpointId" AND endpoint.status = 'enabled'
       WHERE delivery.status = 'pending' AND delivery."nextAttemptAt" <= clock_timestamp()
       ORDER BY delivery."nextAttemptAt"
       LIMIT $1
       FOR UPDATE OF delivery SKIP LOCKED`,
      [Math.min(500, request.limit * 4)],
    )
    const taken = new Map<string, number>()
    const chosen: string[] = []
    for (const row of candidates.rows) {
      if (chosen.length >= request.limit) break
      const already = taken.get(row.endpointId) ?? 0
      if (already >= request.freeSlots(row.endpointId)) continue
      taken.set(row.endpointId, already + 1)
      chosen.push(row.id)
    }
    if (chosen.length === 0) {
      await client.query('COMMIT')
      return []
    }
    const leaseToken = randomUUID()
    const claimed = await client.query<{
      id: string
      attempts: number
      mode: 'test' | 'live'
      endpointId: string
      url: string
      secret: string
      previousSecret: string | null
      previousSecretExpiresAt: Date | null
      eventId: string
      type: string
      createdAt: Date
      data: unknown
    }>(
      `WITH leased AS (
         UPDATE "WebhookDelivery" SET "nextAttemptAt" = clock_timestamp() + $2 * interval '1 millisecond', "leaseToken" = $3, attempts = attempts + 1
         WHERE id = ANY($1::text[])
         RETURNING id, attempts, "eventId", "endpointId"
       )
       SELECT leased.id, leased.attempts, account.mode::text AS mode, endpoint.id AS "endpointId", endpoint.url, endpoint.secret,
              endpoint."previousSecret", endpoint."previousSecretExpiresAt", event.id AS "eventId", event.type, event."createdAt", event.data
       FROM leased
       JOIN "WebhookEndpoint" endpoint ON endpoint.id = leased."endpointId"
       JOIN "Account" account ON account.id = endpoint."accountId"
       JOIN "Event" event ON event.id = leased."eventId"`,
      [chosen, request.leaseMs, leaseToken],
    )
    await client.query('COMMIT')
    return claimed.rows.map((row) => ({
      id: row.id,
      leaseToken,
      attempt: row.attempts,
      accountMode: row.mode,
      endpointId: row.endpointId,
      url: row.url,
      secret: row.secret,
      previousSecret: row.previousSecret,
      previousSecretExpiresAt: row.previousSecretExpiresAt,
      event: { id: row.eventId, type: row.type, createdAt: row.createdAt, data: row.data },
    }))
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}
