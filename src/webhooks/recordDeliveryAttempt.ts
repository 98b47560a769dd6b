import type pg from 'pg'
import { createId } from '../domain/createId'
import type { ClaimedDelivery } from './claimDueDeliveries'
import type { SendOutcome } from './sendWebhook'
import type { WebhookDeliverySettings } from './webhookDeliverySettings'

/**
 * Writes down one attempt and what follows from it, in one transaction, only while this process's
 * lease still holds (a delivery deleted with its endpoint, or taken over after the lease ran out,
 * records nothing here). Succeeded: done, and the endpoint is healthy again. Failed: the next attempt
 * is scheduled from `retryScheduleMs`, or the delivery is given up when the schedule is spent; the
 * endpoint's failingSince starts, and once it is `disableAfterMs` old the endpoint is disabled and
 * what it was still owed is given up.
 */
export async function recordDeliveryAttempt(
  pool: pg.Pool,
  delivery: ClaimedDelivery,
  sent: SendOutcome,
  attemptedAt: Date,
  durationMs: number,
  settings: Pick<WebhookDeliverySettings, 'retryScheduleMs' | 'disableAfterMs'>,
): Promise<void> {
  const retryInMs = sent.ok ? undefined : settings.retryScheduleMs[delivery.attempt - 1]
  const deliveryStatus = sent.ok ? 'succeeded' : retryInMs === undefined ? 'failed' : 'pending'
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const recorded = await client.query(
      `WITH moved AS (
         UPDATE "WebhookDelivery" SET status = $3::"WebhookDeliveryStatus", "leaseToken" = NULL,
           "nextAttemptAt" = CASE WHEN $4::double precision IS NULL THEN "nextAttemptAt" ELSE clock_timestamp() + $4 * interval '1 millisecond' END
         WHERE id = $1 AND "leaseToken" = $2
         RETURNING id, "accountId", "eventId", "endpointId"
       )
       INSERT INTO "WebhookAttempt" (id, "accountId", "deliveryId", "eventId", "endpointId", attempt, status, "responseStatus", "durationMs", error, "responseBody", "createdAt")
       SELECT $5, "accountId", id, "eventId", "endpointId", $6, $7::"WebhookAttemptStatus", $8, $9, $10, $11, $12 FROM moved`,
      [
        delivery.id,
        delivery.leaseToken,
        deliveryStatus,
        retryInMs ?? null,
        createId('WebhookAttempt'),
        delivery.attempt,
        sent.ok ? 'succeeded' : 'failed',
        sent.responseStatus,
        durationMs,
        sent.error,
        sent.bodyExcerpt,
        attemptedAt,
      ],
    )
    if (recorded.rowCount === 1) {
      if (sent.ok) {
        await client.query(`UPDATE "WebhookEndpoint" SET "failingSince" = NULL WHERE id = $1 AND "failingSince" IS NOT NULL`, [delivery.endpointId])
      } else {
        const endpoint = await client.query<{ disabled: boolean }>(
          `UPDATE "WebhookEndpoint" SET "failingSince" = COALESCE("failingSince", $2),
             status = CASE WHEN COALESCE("failingSince", $2) <= $2::timestamptz - $3 * interval '1 millisecond' THEN 'disabled'::"WebhookEndpointStatus" ELSE status END
           WHERE id = $1 AND status = 'enabled'
           RETURNING status = 'disabled' AS disabled`,
          [delivery.endpointId, attemptedAt, settings.disableAfterMs],
        )
        if (endpoint.rows[0]?.disabled) {
          await client.query(`UPDATE "WebhookDelivery" SET status = 'failed', "leaseToken" = NULL WHERE "endpointId" = $1 AND status = 'pending'`, [delivery.endpointId])
        }
      }
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}
