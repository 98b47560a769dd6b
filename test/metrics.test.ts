import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startBillingRunner } from '../src/billing/startBillingRunner'
import { createDatabaseClient } from '../src/database/createDatabaseClient'
import { startWebhookWorker } from '../src/webhooks/startWebhookWorker'
import { metricValue, scrapeMetrics } from './support/scrapeMetrics'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { startWebhookReceiver } from './support/startWebhookReceiver'

// GET /metrics for operators: Prometheus text that a Prometheus parser reads, counters that move with
// the traffic, labels that never carry a customer, a key or a raw path, and no /metrics without a token.

const token = `metrics-${randomUUID()}`
let app: TestApplication
let closed: TestApplication
beforeAll(async () => {
  ;[app, closed] = await Promise.all([startTestApplication({ metricsToken: token }), startTestApplication()])
})
afterAll(async () => {
  await Promise.all([app.close(), closed.close()])
})

const scrape = () => scrapeMetrics(app.baseUrl, token)
const valueOf = metricValue

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300)
  return response.body.data
}

describe('GET /metrics', () => {
  test('is not there without METRICS_TOKEN, and refuses a missing or wrong token', async () => {
    expect((await fetch(`${closed.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404)
    const missing = await fetch(`${app.baseUrl}/metrics`)
    expect(missing.status).toBe(401)
    expect((await missing.json()).error.code).toBe('unauthorized')
    expect((await fetch(`${app.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${token}x` } })).status).toBe(401)
    expect((await fetch(`${app.baseUrl}/metrics`, { headers: { Authorization: app.key } })).status).toBe(401)
    expect((await fetch(`${app.baseUrl}/metrics`, { headers: { Authorization: 'Bearer ' } })).status).toBe(401)
  })

  test('counts HTTP, GraphQL, both hot paths, the pool, query errors and billing runs, with bounded labels', async () => {
    const before = (await scrape()).families

    const meter = await ok('POST', '/v1/usage/meters', { name: 'Metric calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    const customer = await ok('POST', '/v1/customers', { name: 'Scraped', email: 'scraped@example.com' })
    const secretPathId = `cus_${randomUUID().replaceAll('-', '')}`
    expect((await app.request('GET', `/v1/customers/${secretPathId}`)).status).toBe(404)
    expect((await app.request('GET', `/nothing/here/${secretPathId}`)).status).toBe(404)
    await Promise.all(
      Array.from({ length: 5 }, () => ok('POST', '/v1/usage/events', { customerId: customer.id, meterId: meter.id, quantity: 1, idempotencyKey: randomUUID() })),
    )
    await ok('POST', '/v1/access/check', { customerId: customer.id, meterId: meter.id, quantity: 1 })
    const named = await app.graphql('query DashboardCustomers { customers(first: 1) { edges { node { id } } } }')
    expect(named.body.errors).toBeUndefined()
    const failing = await app.graphql('query BrokenOne { customer(id: "nope") { id } }')
    expect(failing.status).toBe(200)
    await expect(app.application.services.database.pool.query('SELECT 1 / 0')).rejects.toThrow(/division by zero/)
    const runner = startBillingRunner(app.application.services.database.prisma, 60_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    await runner.stop()

    const { text, families: after } = await scrape()
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels)

    expect(moved('http_requests_total', { route: '/v1/customers', method: 'POST', status: '201' })).toBe(1)
    expect(moved('http_requests_total', { route: '/v1/customers/{customerId}', method: 'GET', status: '404' })).toBe(1)
    expect(moved('http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1)
    expect(moved('http_requests_total', { route: '/v1/usage/events', method: 'POST' })).toBe(5)
    expect(moved('http_request_duration_seconds_count', { route: '/v1/usage/events', method: 'POST' })).toBe(5)
    expect(moved('graphql_operation_duration_seconds_count', { operation: 'DashboardCustomers', type: 'query', outcome: 'ok' })).toBe(1)
    expect(moved('graphql_operation_duration_seconds_count', { operation: 'BrokenOne', outcome: 'error' })).toBe(1)
    expect(moved('batcher_batch_size_count', { batcher: 'usage_events' })).toBeGreaterThanOrEqual(1)
    expect(moved('batcher_wait_seconds_count', { batcher: 'usage_events' })).toBe(5)
    expect(moved('batcher_batch_size_count', { batcher: 'access_checks' })).toBe(1)
    expect(moved('database_query_errors_total', { class: '22' })).toBe(1)
    expect(moved('billing_runs_total', { outcome: 'done' })).toBe(1)
    expect(moved('billing_run_duration_seconds_count')).toBe(1)
    expect(valueOf(after, 'database_pool_connections', { state: 'total' })).toBeGreaterThan(0)
    expect(valueOf(after, 'database_pool_max_connections')).toBe(10)
    expect(after.find((family) => family.name === 'billing_subscriptions_due')?.metrics[0]?.value).toBe('0')

    // Bounded: nothing a client chose (ids, raw paths, keys, customers) appears in any label.
    for (const secret of [secretPathId, customer.id, app.key, '/nothing/here']) expect(text).not.toContain(secret)
  })

  test('counts webhook deliveries by outcome with their durations, and a billing run that fails', async () => {
    const before = (await scrape()).families
    const receiver = await startWebhookReceiver()
    // The first request of each event is refused with 500, its retry accepted.
    const seen = new Set<string>()
    receiver.answer = (request) => {
      const id = request.headers['webhook-id'] ?? ''
      if (seen.has(id)) return { status: 200 }
      seen.add(id)
      return { status: 500 }
    }
    const worker = startWebhookWorker(
      { pool: app.application.services.database.pool, databaseUrl: app.databaseUrl },
      { retryScheduleMs: [100], disableAfterMs: 60_000, timeoutMs: 1000, pollIntervalMs: 50, concurrency: 4, perEndpointConcurrency: 2 },
    )
    // A billing runner whose database does not exist: its run fails, as it would in an outage.
    const unreachable = createDatabaseClient(app.databaseUrl.replace(/\/[^/?]+(\?|$)/, `/missing_${randomUUID().replaceAll('-', '')}$1`), { maxConnections: 1 })
    const runner = startBillingRunner(unreachable.prisma, 60_000)
    try {
      const key = await app.createKey({ account: `metrics-hooks-${randomUUID().slice(0, 8)}` })
      const endpoint = await app.request('POST', '/v1/webhook_endpoints', { key, body: { url: `${receiver.url}/hooks`, events: ['customer.created'] }, idempotencyKey: randomUUID() })
      expect(endpoint.status).toBe(201)
      for (const name of ['One', 'Two']) expect((await app.request('POST', '/v1/customers', { key, body: { name }, idempotencyKey: randomUUID() })).status).toBe(201)
      await receiver.waitFor((received) => received.length === 4)

      const deadline = Date.now() + 30_000
      let after = (await scrape()).families
      const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels)
      // The counters move when each attempt is recorded, just after its answer: read until they have.
      while (moved('webhook_deliveries_total', { outcome: 'succeeded' }) < 2 || moved('billing_runs_total', { outcome: 'failed' }) < 1) {
        if (Date.now() > deadline) throw new Error('timed out waiting for the delivery and billing counters')
        await new Promise((resolve) => setTimeout(resolve, 50))
        after = (await scrape()).families
      }
      expect(moved('webhook_deliveries_total', { outcome: 'succeeded' })).toBe(2)
      expect(moved('webhook_deliveries_total', { outcome: 'http_error' })).toBe(2)
      expect(moved('webhook_delivery_duration_seconds_count', { outcome: 'succeeded' })).toBe(2)
      expect(moved('webhook_delivery_duration_seconds_count', { outcome: 'http_error' })).toBe(2)
      expect(moved('billing_runs_total', { outcome: 'failed' })).toBe(1)
      expect(moved('billing_runs_total', { outcome: 'done' })).toBe(0)
    } finally {
      await runner.stop()
      await unreachable.close()
      await worker.stop()
      await receiver.close()
    }
  })
})
