import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// The `metrics` root field: revenue, MRR/ARR, subscriptions, usage, top customers, credit balances and
// open invoices, computed by PostgreSQL from data seeded through the public API, with exact decimals.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

async function buyCredits(customerId: string, amount: string) {
  const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount, currency: 'USDC' })
  await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
}

async function subscribe(customerId: string, productId: string, pay: boolean) {
  await ok('POST', '/v1/subscriptions', { customerId, productId })
  if (!pay) return
  const invoices = await ok('GET', '/v1/invoices?limit=1')
  await ok('POST', `/v1/test_helpers/invoices/${invoices.items[0].id}/pay`)
}

const metricsQuery = `query Dashboard($from: DateTime, $to: DateTime, $meterId: ID!, $customerId: ID) {
  metrics(currency: USDC, from: $from, to: $to, bucket: day) {
    revenue { start amount }
    mrr arr
    subscriptionsByStatus { status count }
    subscriptionMovements { start created canceled }
    usage(meterId: $meterId) { start quantity }
    customerUsage: usage(meterId: $meterId, customerId: $customerId) { quantity }
    byUsage: topCustomers(by: usage, meterId: $meterId, limit: 5) { customerId total customer { name } }
    byRevenue: topCustomers(by: revenue, limit: 1) { customer { name } total }
    credits { liabilities debts }
    invoices { open openCount overdue overdueCount }
  }
}`

describe('metrics', () => {
  test('aggregates match what was seeded, to the last decimal', async () => {
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Dashboard calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    await ok('POST', '/v1/products', { name: 'Credits', type: 'metered', defaultPrice: { amount: '0.1', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
    const monthly = await ok('POST', '/v1/products', { name: 'Monthly', type: 'subscription', defaultPrice: { amount: '10', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const yearly = await ok('POST', '/v1/products', { name: 'Yearly', type: 'subscription', defaultPrice: { amount: '100', currency: 'USDC', model: 'subscription', interval: 'year' } })
    const heavy = await ok('POST', '/v1/customers', { name: 'Heavy user' })
    const light = await ok('POST', '/v1/customers', { name: 'Light user' })
    const payer = await ok('POST', '/v1/customers', { name: 'Yearly payer' })
    const late = await ok('POST', '/v1/customers', { name: 'Not paid yet' })
    await buyCredits(heavy.id, '5')
    await buyCredits(light.id, '3')
    for (let use = 0; use < 3; use += 1) await ok('POST', '/v1/usage/events', { customerId: heavy.id, meterId: meter.id, quantity: 2, idempotencyKey: randomUUID() })
    await ok('POST', '/v1/usage/events', { customerId: light.id, meterId: meter.id, quantity: 4, idempotencyKey: randomUUID() })
    await subscribe(heavy.id, monthly.id, true)
    await subscribe(payer.id, yearly.id, true)
    await subscribe(late.id, monthly.id, false)

    const now = new Date()
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    const from = new Date(today.getTime() - 2 * 86_400_000)
    const to = new Date(today.getTime() + 86_400_000)
    const response = await app.graphql(metricsQuery, { from: from.toISOString(), to: to.toISOString(), meterId: meter.id, customerId: heavy.id })
    expect(response.body.errors).toBeUndefined()
    const metrics = response.body.data.metrics

    // Three day buckets, the money all in today's: 5 + 3 credits, 10 monthly, 100 yearly.
    expect(metrics.revenue).toEqual([
      { start: from.toISOString(), amount: '0.000000' },
      { start: new Date(from.getTime() + 86_400_000).toISOString(), amount: '0.000000' },
      { start: today.toISOString(), amount: '118.000000' },
    ])
    // 10 a month plus 100 a year (8.333333… a month), rounded only at the end.
    expect(metrics.mrr).toBe('18.333333')
    expect(metrics.arr).toBe('220.000000')
    const byStatus = Object.fromEntries(metrics.subscriptionsByStatus.map((entry: { status: string; count: number }) => [entry.status, entry.count]))
    expect(byStatus).toEqual({ active: 2, canceled: 0, past_due: 0, paused: 0, trialing: 1 })
    expect(metrics.subscriptionMovements.at(-1)).toEqual({ start: today.toISOString(), created: 3, canceled: 0 })
    expect(metrics.usage.map((point: { quantity: string }) => point.quantity)).toEqual(['0', '0', '10'])
    expect(metrics.customerUsage.map((point: { quantity: string }) => point.quantity)).toEqual(['0', '0', '6'])
    expect(metrics.byUsage).toEqual([
      { customerId: heavy.id, total: '6', customer: { name: 'Heavy user' } },
      { customerId: light.id, total: '4', customer: { name: 'Light user' } },
    ])
    expect(metrics.byRevenue).toEqual([{ customer: { name: 'Yearly payer' }, total: '100.000000' }])
    // Balances: 5 − 6 × 0.1 and 3 − 4 × 0.1.
    expect(metrics.credits).toEqual({ liabilities: '7.000000', debts: '0.000000' })
    expect(metrics.invoices).toMatchObject({ open: '10.000000', openCount: 1 })

    // Cross-check with the lists the API already had.
    const balances = await app.graphql('query($id: ID!) { node(id: $id) { ... on Customer { creditBalances { balance } } } }', { id: heavy.id })
    expect(balances.body.data.node.creditBalances).toEqual([{ balance: '4.400000' }])
  })

  test('refuses backwards ranges and series past the bucket limit; needs scope read', async () => {
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Range calls', aggregation: 'count', unit: 'request', resetPeriod: 'never' })
    const backwards = await app.graphql(metricsQuery, { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z', meterId: meter.id })
    expect(backwards.body.errors[0].extensions.code).toBe('validation_error')
    const tooMany = await app.graphql('{ metrics(currency: BRL, from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z", bucket: hour) { mrr } }')
    expect(tooMany.body.errors[0].extensions.code).toBe('validation_error')
    const unknownMeter = await app.graphql('{ metrics(currency: BRL) { usage(meterId: "mtr_doesnotexist") { quantity } } }')
    expect(unknownMeter.body.errors[0].extensions.code).toBe('meter_not_found')
    const writer = await app.createKey({ scopes: ['usage:write'] })
    const refused = await app.graphql('{ metrics(currency: BRL) { mrr } }', {}, writer)
    expect(refused.body.errors[0].extensions.code).toBe('insufficient_scope')
    const empty = await app.graphql('{ metrics(currency: BRL, bucket: week) { mrr arr credits { liabilities debts } invoices { open overdue } revenue { amount } } }')
    expect(empty.body.errors).toBeUndefined()
    expect(empty.body.data.metrics).toMatchObject({ mrr: '0.00', arr: '0.00', credits: { liabilities: '0.00', debts: '0.00' }, invoices: { open: '0.00', overdue: '0.00' } })
    expect(empty.body.data.metrics.revenue.length).toBeGreaterThanOrEqual(5)
  })
})
