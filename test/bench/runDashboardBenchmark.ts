import type { ChildProcess } from 'node:child_process'
import pg from 'pg'

// `npm run bench -- dashboard`: what a dashboard asks most, timed through POST /graphql on the built
// service (auth, GraphQL, PostgreSQL), with 10,000 customers and first 100,000 then 1,000,000 usage
// events seeded by SQL (generate_series) into the bootstrap key's account:
//   - a 30-day daily usage series of one meter (all customers),
//   - MRR (5,000 subscriptions, monthly and yearly prices, mixed statuses),
//   - a filtered customers page (50 customers whose name starts with a prefix, with their total).
// Events fall over the last 90 days on two meters, so the 30-day window of the measured meter holds a
// sixth of them; each query is run `BENCH_DASHBOARD_RUNS` times (default 60) after 5 warm-up runs, one
// at a time, and its p50 and p95 printed. No assertion: the numbers are the result.

const runs = Number(process.env.BENCH_DASHBOARD_RUNS ?? 60)
const eventSteps = [100_000, 1_000_000]

interface Service {
  baseUrl: string
}

interface Timing {
  query: string
  events: number
  p50: number
  p95: number
}

async function graphql(service: Service, key: string, query: string, variables: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.baseUrl}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  })
  const answer = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] }
  if (answer.errors || !answer.data) throw new Error(`GraphQL failed: ${JSON.stringify(answer.errors)}`)
  return answer.data
}

async function rest(service: Service, key: string, route: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${service.baseUrl}${route}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify(body),
  })
  const answer = (await response.json()) as { data: { id: string } }
  if (!response.ok) throw new Error(`${route}: ${JSON.stringify(answer)}`)
  return answer.data
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!
}

async function time(service: Service, key: string, query: string, variables: Record<string, unknown>): Promise<{ p50: number; p95: number }> {
  for (let warmUp = 0; warmUp < 5; warmUp += 1) await graphql(service, key, query, variables)
  const durations: number[] = []
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now()
    await graphql(service, key, query, variables)
    durations.push(performance.now() - started)
  }
  durations.sort((a, b) => a - b)
  return { p50: percentile(durations, 0.5), p95: percentile(durations, 0.95) }
}

/** Seeds customers, prices and subscriptions; returns the account and the measured meter. */
async function seedAccount(client: pg.Client, service: Service, key: string): Promise<{ accountId: string; meterIds: string[] }> {
  const { account } = (await graphql(service, key, '{ account { id } }')) as { account: { id: string } }
  const meters = [
    await rest(service, key, '/v1/usage/meters', { name: 'Dashboard bench calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' }),
    await rest(service, key, '/v1/usage/meters', { name: 'Dashboard bench tokens', aggregation: 'sum', unit: 'token', resetPeriod: 'never' }),
  ]
  const monthly = (await rest(service, key, '/v1/products', { name: 'Bench monthly', type: 'subscription', defaultPrice: { amount: '19.90', currency: 'USDC', model: 'subscription', interval: 'month' } })) as { id: string; defaultPriceId?: string }
  const yearly = (await rest(service, key, '/v1/products', { name: 'Bench yearly', type: 'subscription', defaultPrice: { amount: '199', currency: 'USDC', model: 'subscription', interval: 'year' } })) as { id: string; defaultPriceId?: string }
  const price = async (productId: string) => (await client.query<{ id: string }>('SELECT id FROM "Price" WHERE "productId" = $1', [productId])).rows[0]!.id
  const [monthlyPrice, yearlyPrice] = [await price(monthly.id), await price(yearly.id)]
  await client.query(
    `INSERT INTO "Customer" (id, "accountId", "externalId", name, email, "createdAt", "updatedAt")
     SELECT 'cus_dbench' || g, $1, 'ext-' || g, 'Customer ' || lpad(g::text, 5, '0'), 'customer' || g || '@example.com',
       now() - (g || ' minutes')::interval, now()
     FROM generate_series(1, 10000) g`,
    [account.id],
  )
  await client.query(
    `INSERT INTO "Subscription" (id, "accountId", "customerId", "productId", "priceId", status, "paymentMethod", "billingAnchor", "currentPeriodStart", "currentPeriodEnd", "createdAt")
     SELECT 'sub_dbench' || g, $1, 'cus_dbench' || g,
       CASE WHEN g % 4 = 0 THEN $4 ELSE $2 END, CASE WHEN g % 4 = 0 THEN $5 ELSE $3 END,
       (CASE g % 10 WHEN 0 THEN 'canceled' WHEN 1 THEN 'past_due' WHEN 2 THEN 'trialing' ELSE 'active' END)::"SubscriptionStatus",
       'usdc_invoice', now() - interval '10 days', now() - interval '10 days', now() + interval '20 days', now() - interval '10 days'
     FROM generate_series(1, 5000) g`,
    [account.id, monthly.id, monthlyPrice, yearly.id, yearlyPrice],
  )
  return { accountId: account.id, meterIds: meters.map((meter) => meter.id) }
}

/** Usage events numbered (from, to], spread over the last 90 days, all customers, two meters. */
async function seedEvents(client: pg.Client, accountId: string, meterIds: string[], from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += 100_000) {
    // The hourly rollup is filled as billing_record_usage fills it for the events it records.
    await client.query(
      `WITH inserted AS (
         INSERT INTO "UsageEvent" (id, "accountId", "customerId", "meterId", quantity, "idempotencyKey", fingerprint, "createdAt")
         SELECT 'evt_dbench' || g, $1, 'cus_dbench' || (g % 10000 + 1), CASE WHEN g % 2 = 0 THEN $2 ELSE $3 END, g % 5 + 1,
           'dbench-' || g, 'bench', now() - ((g::bigint * 7919) % (90 * 86400)) * interval '1 second'
         FROM generate_series($4::int + 1, $5::int) g
         RETURNING "accountId", "meterId", quantity, "createdAt")
       INSERT INTO "UsageRollup" ("accountId", "meterId", hour, shard, quantity, events)
       SELECT "accountId", "meterId", date_trunc('hour', "createdAt", 'UTC'), 0, sum(quantity), count(*) FROM inserted GROUP BY 1, 2, 3
       ON CONFLICT ("accountId", "meterId", hour, shard) DO UPDATE
         SET quantity = "UsageRollup".quantity + excluded.quantity, events = "UsageRollup".events + excluded.events`,
      [accountId, meterIds[0], meterIds[1], start, Math.min(to, start + 100_000)],
    )
  }
  await client.query('VACUUM ANALYZE "UsageEvent", "UsageRollup"')
}

export async function runDashboardBenchmark(databaseUrl: string, startService: (databaseUrl: string) => Promise<Service & { child: ChildProcess }>, key: string): Promise<void> {
  const service = await startService(databaseUrl)
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { accountId, meterIds } = await seedAccount(client, service, key)
    const schema = (await graphql(service, key, '{ __type(name: "Query") { fields { name args { name } } } }')) as { __type: { fields: { name: string; args: { name: string }[] }[] } }
    const customerArguments = schema.__type.fields.find((field) => field.name === 'customers')?.args.map((argument) => argument.name) ?? []
    const customersPage = customerArguments.includes('namePrefix')
      ? { label: 'customers page (namePrefix "Customer 01", first 50, totalCount)', query: 'query BenchCustomers { customers(first: 50, namePrefix: "customer 01") { totalCount edges { node { id name email } } } }' }
      : { label: 'customers page (externalId filter; no name filter in this schema yet)', query: 'query BenchCustomers { customers(first: 50, externalId: "ext-1234") { edges { node { id name email } } } }' }
    const now = new Date()
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
    const usageVariables = { meterId: meterIds[0], from: new Date(today - 29 * 86_400_000).toISOString(), to: new Date(today + 86_400_000).toISOString() }
    const queries = [
      { label: '30-day daily usage series, one meter', query: 'query BenchUsage($meterId: ID!, $from: DateTime!, $to: DateTime!) { metrics(currency: USDC, from: $from, to: $to, bucket: day) { usage(meterId: $meterId) { start quantity } } }', variables: usageVariables },
      { label: 'MRR', query: 'query BenchMrr { metrics(currency: USDC) { mrr arr } }', variables: {} },
      { ...customersPage, variables: {} },
    ]
    const timings: Timing[] = []
    let seeded = 0
    for (const events of eventSteps) {
      const started = performance.now()
      await seedEvents(client, accountId, meterIds, seeded, events)
      seeded = events
      console.log(`seeded ${events.toLocaleString('en')} usage events (${((performance.now() - started) / 1000).toFixed(1)} s)`)
      for (const each of queries) timings.push({ query: each.label, events, ...(await time(service, key, each.query, each.variables)) })
    }
    console.log('')
    console.log(`| query | p50 ms at ${eventSteps[0]!.toLocaleString('en')} | p50 ms at ${eventSteps[1]!.toLocaleString('en')} | growth | p95 ms at ${eventSteps[1]!.toLocaleString('en')} |`)
    console.log('|---|---:|---:|---:|---:|')
    for (const each of queries) {
      const [small, large] = eventSteps.map((events) => timings.find((timing) => timing.query === each.label && timing.events === events)!)
      console.log(`| ${each.label} | ${small!.p50.toFixed(1)} | ${large!.p50.toFixed(1)} | ${(large!.p50 / small!.p50).toFixed(2)}× | ${large!.p95.toFixed(1)} |`)
    }
    console.log('targets: p50 ≤ 50 ms at 1,000,000 events, growth < 2×')
  } finally {
    await client.end()
    service.child.kill('SIGTERM')
  }
}
