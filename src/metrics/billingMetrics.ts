import { Counter, Gauge, Histogram } from 'prom-client'
import type pg from 'pg'
import { metricsRegistry } from './metricsRegistry'

export const billingRuns = new Counter({
  name: 'billing_runs_total',
  help: 'Billing cycles run by this process, by outcome (done or failed)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
})

export const billingRunDuration = new Histogram({
  name: 'billing_run_duration_seconds',
  help: 'Duration of a billing cycle',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
})

export const billingSubscriptions = new Counter({
  name: 'billing_subscriptions_total',
  help: 'Subscriptions the billing cycles of this process moved, by result (renewed, past_due, expired)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
})

const subscriptionsDue = new Gauge({
  name: 'billing_subscriptions_due',
  help: 'Active subscriptions whose period has ended and that no cycle has renewed yet (all accounts, each on its own clock)',
  registers: [metricsRegistry],
})

/** Read at scrape time from the database (the backlog is shared by every process on it). */
export async function recordSubscriptionsDue(pool: pg.Pool): Promise<void> {
  const result = await pool.query<{ due: string }>(`
    SELECT count(*) AS due FROM "Subscription" subscription JOIN "Account" account ON account.id = subscription."accountId"
    WHERE subscription.status = 'active'
      AND subscription."currentPeriodEnd" <= now() + account."clockOffsetMs" * interval '1 millisecond'`)
  subscriptionsDue.set(Number(result.rows[0]?.due ?? 0))
}
