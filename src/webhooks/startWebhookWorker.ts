import pg from 'pg'
import { logError } from '../logging/log'
import { webhookDeliveries, webhookDeliveryDuration } from '../metrics/webhookMetrics'
import { decryptSecret } from '../secrets/decryptSecret'
import { claimDueDeliveries, type ClaimedDelivery } from './claimDueDeliveries'
import { recordDeliveryAttempt } from './recordDeliveryAttempt'
import { systemHostResolver, type HostResolver } from '../domain/resolveDestination'
import { sendWebhook } from './sendWebhook'
import { signWebhook } from './signWebhook'
import { webhookDeliveriesChannel } from './webhookDeliveriesChannel'
import { defaultWebhookDeliverySettings, leaseMs, type WebhookDeliverySettings } from './webhookDeliverySettings'

export interface WebhookWorkerOptions extends Partial<WebhookDeliverySettings> {
  /** How receivers' host names are looked up (default: the system's resolver). */
  resolveHost?: HostResolver
}

export interface WebhookWorker {
  /** Stops claiming and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>
}

/**
 * Delivers webhooks from this process. It wakes on the outbox's NOTIFY (billing_record_event commits
 * one with every event owed to an endpoint), so an event usually leaves within milliseconds of its
 * commit, and also every `pollIntervalMs` for retries that come due and for attempts whose process
 * died. Sending holds no database connection: a slow or dead receiver occupies at most
 * `perEndpointConcurrency` of the `concurrency` slots and nothing the API uses. Several processes
 * may run it: claimDueDeliveries gives each attempt to one of them.
 */
export function startWebhookWorker(
  database: { pool: pg.Pool; databaseUrl: string },
  options: WebhookWorkerOptions = {},
): WebhookWorker {
  const { resolveHost = systemHostResolver, ...overrides } = options
  const settings: WebhookDeliverySettings = { ...defaultWebhookDeliverySettings, ...overrides }
  const inFlightByEndpoint = new Map<string, number>()
  const attempts = new Set<Promise<void>>()
  let inFlight = 0
  let claiming = false
  let wakeAgain = false
  let stopped = false

  const pump = async (): Promise<void> => {
    if (stopped) return
    if (claiming) {
      wakeAgain = true
      return
    }
    claiming = true
    try {
      do {
        wakeAgain = false
        const free = settings.concurrency - inFlight
        if (free <= 0) break
        const claimed = await claimDueDeliveries(database.pool, {
          limit: free,
          perEndpointLimit: settings.perEndpointConcurrency,
          inFlightByEndpoint,
          leaseMs: leaseMs(settings),
        })
        for (const delivery of claimed) start(delivery)
        // A full batch may have left more behind.
        if (claimed.length === free) wakeAgain = true
      } while (wakeAgain && !stopped)
    } catch (error) {
      logError(error)
    } finally {
      claiming = false
    }
  }
  const wake = () => void pump()

  const start = (delivery: ClaimedDelivery) => {
    inFlight += 1
    inFlightByEndpoint.set(delivery.endpointId, (inFlightByEndpoint.get(delivery.endpointId) ?? 0) + 1)
    const attempt = deliver(delivery)
      .catch((error: unknown) => logError(error))
      .finally(() => {
        inFlight -= 1
        const left = (inFlightByEndpoint.get(delivery.endpointId) ?? 1) - 1
        if (left <= 0) inFlightByEndpoint.delete(delivery.endpointId)
        else inFlightByEndpoint.set(delivery.endpointId, left)
        attempts.delete(attempt)
        wake()
      })
    attempts.add(attempt)
  }

  const deliver = async (delivery: ClaimedDelivery) => {
    const attemptedAt = new Date()
    const body = JSON.stringify({ id: delivery.event.id, type: delivery.event.type, createdAt: delivery.event.createdAt.toISOString(), data: delivery.event.data })
    const previousSigns = delivery.previousSecret !== null && delivery.previousSecretExpiresAt !== null && delivery.previousSecretExpiresAt > attemptedAt
    const headers = signWebhook(
      { secret: decryptSecret(delivery.secret), previousSecret: previousSigns ? decryptSecret(delivery.previousSecret!) : undefined },
      delivery.event.id,
      attemptedAt,
      body,
    )
    const started = performance.now()
    const sent = await sendWebhook(delivery.url, delivery.accountMode, headers, body, settings.timeoutMs, resolveHost)
    const durationMs = Math.round(performance.now() - started)
    webhookDeliveries.inc({ outcome: sent.outcome })
    webhookDeliveryDuration.observe({ outcome: sent.outcome }, durationMs / 1000)
    await recordDeliveryAttempt(database.pool, delivery, sent, attemptedAt, durationMs, settings)
  }

  const listener = listen(database.databaseUrl, wake, () => stopped)
  const timer = setInterval(wake, settings.pollIntervalMs)
  timer.unref()
  setImmediate(wake)

  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await listener.close()
      while (claiming) await new Promise((resolve) => setTimeout(resolve, 10))
      await Promise.all([...attempts])
    },
  }
}

/** LISTENs on the outbox's channel on its own connection, reconnecting (and catching up by polling) when it drops. */
function listen(databaseUrl: string, onNotify: () => void, isStopped: () => boolean): { close(): Promise<void> } {
  let client: pg.Client | undefined
  const connect = async () => {
    if (isStopped()) return
    const current = new pg.Client({ connectionString: databaseUrl })
    const lost = () => {
      if (client !== current) return
      client = undefined
      current.end().catch(() => undefined)
      if (!isStopped()) setTimeout(() => void connect(), 1000).unref()
    }
    current.on('error', lost)
    current.on('end', lost)
    current.on('notification', onNotify)
    client = current
    try {
      await current.connect()
      await current.query(`LISTEN ${webhookDeliveriesChannel}`)
      onNotify()
    } catch {
      lost()
    }
  }
  void connect()
  return {
    async close() {
      const current = client
      client = undefined
      await current?.end().catch(() => undefined)
    },
  }
}
