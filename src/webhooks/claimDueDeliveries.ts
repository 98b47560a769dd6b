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
  /** At most this many in flight to one endpoint from this process. */
  perEndpointLimit: number
  /** Attempts this process has in flight, by endpoint (absent: none). */
  inFlightByEndpoint: ReadonlyMap<string, number>
  leaseMs: number
}

/**
 * Claims due attempts so that each is sent by one process: candidates are locked with FOR UPDATE
 * SKIP LOCKED (another process skips them), and the chosen ones get a lease (nextAttemptAt moved past
 * the attempt's longest duration, a fresh leaseToken, the attempt counted) before the locks go. A
 * process that reads them after the commit sees them not due; one that read them before re-checks
 * the row when it gets the lock (PostgreSQL re-evaluates the condition) and skips it too.
 *
 * Each endpoint's free slots in this process are applied in the query itself, before the limit: an
 * endpoint without free slots is left out and the others get at most their free slots each (oldest
 * due first). A hung receiver with a large backlog therefore cannot fill the batch and keep other
 * endpoints' (other accounts') deliveries from being reached; its rows wait for its slots, or for
 * another process.
 */
export async function claimDueDeliveries(pool: pg.Pool, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const inFlight = [...request.inFlightByEndpoint]
    const candidates = await client.query<{ id: string }>(
      `SELECT delivery.id FROM "WebhookDelivery" delivery
       WHERE delivery.id IN (
         SELECT ranked.id FROM (
           SELECT due.id, due."nextAttemptAt", COALESCE($2::int - busy.count, $2::int) AS free,
                  row_number() OVER (PARTITION BY due."endpointId" ORDER BY due."nextAttemptAt", due.id) AS place
           FROM "WebhookDelivery" due
           JOIN "WebhookEndpoint" endpoint ON endpoint.id = due."endpointId" AND endpoint.status = 'enabled'
           LEFT JOIN unnest($3::text[], $4::int[]) AS busy("endpointId", count) ON busy."endpointId" = due."endpointId"
           WHERE due.status = 'pending' AND due."nextAttemptAt" <= clock_timestamp() AND COALESCE($2::int - busy.count, $2::int) > 0
         ) ranked
         WHERE ranked.place <= ranked.free
         ORDER BY ranked."nextAttemptAt"
         LIMIT $1
       )
       AND delivery.status = 'pending' AND delivery."nextAttemptAt" <= clock_timestamp()
       ORDER BY delivery."nextAttemptAt"
       FOR UPDATE OF delivery SKIP LOCKED`,
      [request.limit, request.perEndpointLimit, inFlight.map(([endpointId]) => endpointId), inFlight.map(([, count]) => count)],
    )
    const chosen = candidates.rows.map((row) => row.id)
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
