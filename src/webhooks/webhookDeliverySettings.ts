/**
 * How deliveries are paced (CONTRACT §10). Everything runs on real time, never on an account's test
 * clock. Tests inject a short schedule; production uses the defaults.
 */
export interface WebhookDeliverySettings {
  /** The wait before each retry: the first retry comes this long after the first failure, and so on. A delivery that fails once more than the schedule allows is given up. */
  retryScheduleMs: readonly number[]
  /** An endpoint that has failed without a success in between for this long is disabled. */
  disableAfterMs: number
  /** A 2xx must arrive within this; anything else is a failure. */
  timeoutMs: number
  /** Attempts in flight in this process, over all endpoints. */
  concurrency: number
  /** Attempts in flight in this process to one endpoint: a slow receiver holds at most this many. */
  perEndpointConcurrency: number
  /** How often due retries are looked for when no NOTIFY wakes the worker. */
  pollIntervalMs: number
}

const second = 1000
const minute = 60 * second
const hour = 60 * minute

export const defaultWebhookDeliverySettings: WebhookDeliverySettings = {
  retryScheduleMs: [5 * second, 5 * minute, 30 * minute, 2 * hour, 5 * hour, 10 * hour, 10 * hour],
  disableAfterMs: 5 * 24 * hour,
  timeoutMs: 15 * second,
  concurrency: 32,
  perEndpointConcurrency: 4,
  pollIntervalMs: second,
}

/**
 * How long a claimed attempt stays with the process that claimed it. Longer than any attempt can
 * take, so that a live worker always records its outcome first; a worker that died (kill -9) lets
 * it come due again after this, and another process sends it (at least once, never lost).
 */
export function leaseMs(settings: Pick<WebhookDeliverySettings, 'timeoutMs'>): number {
  return settings.timeoutMs + 10 * second
}
