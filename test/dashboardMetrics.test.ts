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
    // A plan billed by usage has no monthly fee: its unit price is not recurring revenue.
    const byUse = await ok('POST', '/v1/products', { name: 'By use', type: 'subscription', defaultPrice: { amount: '0.5', currency: 'USDC', model: 'metered', usageBillingMode: 'subscription', meterId: meter.id } })
    await ok('POST', '/v1/subscriptions', { customerId: light.id, productId: byUse.id })

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
    expect(byStatus).toEqual({ active: 3, canceled: 0, past_due: 0, paused: 0, trialing: 1 })
    expect(metrics.subscriptionMovements.at(-1)).toEqual({ start: today.toISOString(), created: 4, canceled: 0 })
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
    // 999 hours from the start of an hour are 999 buckets; from half past, the same length touches 1,000;
    // 1,000 hours from half past touch 1,001, one past the limit.
    const series = (from: string, hours: number) =>
      app.graphql('query($from: DateTime, $to: DateTime) { metrics(currency: BRL, from: $from, to: $to, bucket: hour) { revenue { start } } }', {
        from,
        to: new Date(Date.parse(from) + hours * 3_600_000).toISOString(),
      })
    expect((await series('2026-01-01T00:00:00Z', 999)).body.data.metrics.revenue).toHaveLength(999)
    expect((await series('2026-01-01T00:30:00Z', 999)).body.data.metrics.revenue).toHaveLength(1000)
    expect((await series('2026-01-01T00:30:00Z', 1000)).body.errors[0].extensions).toMatchObject({ code: 'validation_error', param: 'bucket' })
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

// One account of its own whose clock is moved: payments, refunds (partial and full), a cancellation,
// a debt and an overdue invoice land in known buckets, read back by day, hour and month.
describe('metrics over time', () => {
  const hour = 3_600_000
  const day = 24 * hour
  const startOfDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
  const startOfMonth = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1))

  async function okWith(key: string, method: string, path: string, body?: unknown) {
    const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
    return response.body.data
  }

  /** Moves the account's clock to one hour past the start of the next UTC day and returns that day's start. */
  async function moveToNextDay(key: string): Promise<Date> {
    const { now } = await okWith(key, 'POST', '/v1/test_helpers/clock/advance', { seconds: 1 })
    const nextDay = new Date(startOfDay(new Date(now)).getTime() + day)
    await okWith(key, 'POST', '/v1/test_helpers/clock/advance', { seconds: Math.ceil((nextDay.getTime() + hour - new Date(now).getTime()) / 1000) })
    return nextDay
  }

  test('refunds lower the bucket they were confirmed in; MRR, cancellations, debts and overdue invoices by day, hour and month', async () => {
    const key = await app.createKey({ account: `metrics-time-${randomUUID().slice(0, 8)}` })
    const meter = await okWith(key, 'POST', '/v1/usage/meters', { name: 'Calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    await okWith(key, 'POST', '/v1/products', { name: 'Credits', type: 'metered', defaultPrice: { amount: '0.1', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
    const monthly = await okWith(key, 'POST', '/v1/products', { name: 'Monthly', type: 'subscription', defaultPrice: { amount: '10', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const yearly = await okWith(key, 'POST', '/v1/products', { name: 'Yearly', type: 'subscription', defaultPrice: { amount: '100', currency: 'USDC', model: 'subscription', interval: 'year' } })
    const customer = async (name: string) => (await okWith(key, 'POST', '/v1/customers', { name })).id as string
    const [partly, fully, canceling, yearlyPayer, unpaid, debtor] = [
      await customer('Partly refunded'), await customer('Fully refunded'), await customer('Cancels'), await customer('Yearly'), await customer('Unpaid'), await customer('Debtor'),
    ]
    const buyCreditsFor = async (customerId: string, amount: string) => {
      const session = await okWith(key, 'POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount, currency: 'USDC' })
      await okWith(key, 'POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
      return (await okWith(key, 'GET', '/v1/transactions?limit=1')).items[0].id as string
    }
    const subscribeFor = async (customerId: string, productId: string, pay: boolean) => {
      const subscription = await okWith(key, 'POST', '/v1/subscriptions', { customerId, productId })
      if (pay) await okWith(key, 'POST', `/v1/test_helpers/invoices/${(await okWith(key, 'GET', '/v1/invoices?limit=1')).items[0].id}/pay`)
      return subscription.id as string
    }

    // Day 0: 10 + 20 in credits, 3.5 of the 10 refunded at once; 10 monthly and 100 yearly paid; 10 left open.
    const day0 = await moveToNextDay(key)
    const partlyPaid = await buyCreditsFor(partly, '10')
    const fullyPaid = await buyCreditsFor(fully, '20')
    await okWith(key, 'POST', `/v1/transactions/${partlyPaid}/refund`, { amount: '3.5' })
    const canceled = await subscribeFor(canceling, monthly.id, true)
    await subscribeFor(yearlyPayer, yearly.id, true)
    await subscribeFor(unpaid, monthly.id, false)
    // Day 1: the 20 refunded in full, the monthly subscription canceled, 5 calls at 0.1 with no credits.
    const day1 = await moveToNextDay(key)
    await okWith(key, 'POST', `/v1/transactions/${fullyPaid}/refund`)
    await okWith(key, 'POST', `/v1/subscriptions/${canceled}/cancel`)
    await okWith(key, 'POST', '/v1/usage/events', { customerId: debtor, meterId: meter.id, quantity: 5, idempotencyKey: randomUUID() })
    // Day 9: the open invoice (due 7 days after day 0) is overdue.
    for (let move = 0; move < 8; move += 1) await moveToNextDay(key)

    const query = `query Over($from: DateTime, $to: DateTime, $bucket: MetricsBucket) {
      metrics(currency: USDC, from: $from, to: $to, bucket: $bucket) {
        revenue { start amount } mrrSeries { start amount } mrr
        subscriptionMovements { start created canceled }
        topCustomers(by: revenue, limit: 10) { customerId total }
        credits { liabilities debts }
        invoices { open openCount overdue overdueCount }
      }
    }`
    const read = async (from: Date, to: Date, bucket: string) => {
      const response = await app.graphql(query, { from: from.toISOString(), to: to.toISOString(), bucket }, key)
      expect(response.body.errors).toBeUndefined()
      return response.body.data.metrics
    }

    const byDay = await read(day0, new Date(day0.getTime() + 10 * day), 'day')
    const zeros = (count: number) => Array.from({ length: count }, () => '0.000000')
    expect(byDay.revenue.map((point: { amount: string }) => point.amount)).toEqual(['136.500000', '-20.000000', ...zeros(8)])
    expect(byDay.revenue[1].start).toBe(day1.toISOString())
    // 10 + 100 / 12 at the end of day 0; the yearly one alone once the monthly one is canceled.
    expect(byDay.mrrSeries.map((point: { amount: string }) => point.amount)).toEqual(['18.333333', ...Array.from({ length: 9 }, () => '8.333333')])
    expect(byDay.mrr).toBe('8.333333')
    expect(byDay.subscriptionMovements.slice(0, 3)).toEqual([
      { start: day0.toISOString(), created: 3, canceled: 0 },
      { start: day1.toISOString(), created: 0, canceled: 1 },
      { start: new Date(day1.getTime() + day).toISOString(), created: 0, canceled: 0 },
    ])
    expect(byDay.topCustomers).toEqual([
      { customerId: yearlyPayer, total: '100.000000' },
      { customerId: canceling, total: '10.000000' },
      { customerId: partly, total: '6.500000' },
      { customerId: fully, total: '0.000000' },
    ])
    // 10 − 3.5 left to one customer, the full refund took its 20 credits back, 5 × 0.1 owed.
    expect(byDay.credits).toEqual({ liabilities: '6.500000', debts: '-0.500000' })
    expect(byDay.invoices).toEqual({ open: '10.000000', openCount: 1, overdue: '10.000000', overdueCount: 1 })

    const byHour = await read(day1, new Date(day1.getTime() + 3 * hour), 'hour')
    expect(byHour.revenue.map((point: { start: string; amount: string }) => [point.start, point.amount])).toEqual([
      [day1.toISOString(), '0.000000'],
      [new Date(day1.getTime() + hour).toISOString(), '-20.000000'],
      [new Date(day1.getTime() + 2 * hour).toISOString(), '0.000000'],
    ])
    expect(byHour.mrrSeries.map((point: { amount: string }) => point.amount)).toEqual(['18.333333', '8.333333', '8.333333'])
    expect(byHour.subscriptionMovements.map((point: { canceled: number }) => point.canceled)).toEqual([0, 1, 0])

    // Months: whether day 0 and day 1 share one depends on today's date, so the expectation is summed here.
    const month0 = startOfMonth(day0)
    const month1 = new Date(Date.UTC(month0.getUTCFullYear(), month0.getUTCMonth() + 1, 1))
    const byMonth = await read(month0, new Date(Date.UTC(month0.getUTCFullYear(), month0.getUTCMonth() + 2, 1)), 'month')
    const sameMonth = startOfMonth(day1).getTime() === month0.getTime()
    expect(byMonth.revenue).toEqual([
      { start: month0.toISOString(), amount: sameMonth ? '116.500000' : '136.500000' },
      { start: month1.toISOString(), amount: sameMonth ? '0.000000' : '-20.000000' },
    ])
    expect(byMonth.mrrSeries.map((point: { amount: string }) => point.amount)).toEqual(['8.333333', '8.333333'])
  })
})
