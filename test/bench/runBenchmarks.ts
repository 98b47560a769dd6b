import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { runBillingCycle } from '../../src/billing/runBillingCycle'
import { createApplication } from '../../src/createApplication'
import { seedDueSubscriptions } from '../support/seedDueSubscriptions'
import { runDashboardBenchmark } from './runDashboardBenchmark'
import { findFreePort } from '../../src/database/findFreePort'
import { measureWebhookLatency } from './measureWebhookLatency'

// `npm run bench`: the hot paths against the hardware's ceilings, measured side by side in one run.
//   1. bare node:http answering a small JSON POST (the HTTP ceiling);
//   2. pgbench running the naive usage-event transaction, one commit per event (the database ceiling);
//   3. the service's POST /v1/access/check and POST /v1/usage/events through auth, REST, GraphQL and
//      PostgreSQL, with the same load generator (autocannon, 32 connections);
//   4. webhook delivery latency, from an event's commit to its receipt by a local receiver;
//   5. one billing run over 2,000 and then 10,000 due subscriptions (seeded with SQL), to see how it grows.
// It prints requests/s, p50/p99 latency, the ratios to the ceilings, the server's peak RSS, and checks
// that every acknowledged usage event is in the database exactly once. No assertion fails the run:
// the numbers are the result.
// `npm run bench -- dashboard` runs only the dashboard queries over 100,000 and 1,000,000 usage events
// (runDashboardBenchmark.ts).

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = 32
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
const bootstrapKey = `bk_test_bench${randomUUID().replaceAll('-', '')}`

interface Measurement {
  name: string
  requestsPerSecond: number
  p50: number | null
  p99: number | null
  errors: number
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`)
    if (await fetch(url).then((response) => response.ok, () => false)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not come up`)
}

async function load(name: string, options: autocannon.Options): Promise<Measurement> {
  const result = await autocannon({ connections, duration: seconds, ...options })
  const non2xx = result.non2xx + result.errors + result.timeouts
  return { name, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: non2xx }
}

async function bareHttpCeiling(): Promise<Measurement> {
  const port = await findFreePort()
  const source = `require('node:http').createServer((q, s) => { let b = ''; q.on('data', (c) => (b += c)); q.on('end', () => { const body = JSON.stringify({ data: { allowed: true, reason: 'credits_available' }, error: null, success: true }); s.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }); s.end(body) }) }).listen(${port}, '127.0.0.1')`
  const child = spawn(process.execPath, ['-e', source], { stdio: 'ignore' })
  try {
    await waitFor(`http://127.0.0.1:${port}/`, child)
    return await load('bare node:http (ceiling)', {
      url: `http://127.0.0.1:${port}/v1/access/check`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerId: 'cus_x', meterId: 'mtr_x', quantity: 1 }),
    })
  } finally {
    child.kill()
  }
}

async function pgbenchCeiling(databaseUrl: string): Promise<Measurement> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  await client.query(`
    CREATE TABLE bench_event (id bigserial PRIMARY KEY, idempotency_key text NOT NULL UNIQUE, customer_id int NOT NULL, quantity numeric NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE bench_balance (customer_id int PRIMARY KEY, balance numeric NOT NULL);
    CREATE TABLE bench_ledger (id bigserial PRIMARY KEY, customer_id int NOT NULL, amount numeric NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    INSERT INTO bench_balance SELECT g, 1000000000 FROM generate_series(1, 100) g;`)
  await client.end()
  const directory = await mkdtemp(path.join(tmpdir(), 'billing-pgbench-'))
  const script = path.join(directory, 'usage-event.sql')
  await writeFile(
    script,
    `\\set customer random(1, 100)
\\set nonce random(1, 1000000000000)
BEGIN;
INSERT INTO bench_event (idempotency_key, customer_id, quantity) VALUES (:client_id || '-' || :nonce, :customer, 1) ON CONFLICT DO NOTHING;
UPDATE bench_balance SET balance = balance - 0.01 WHERE customer_id = :customer AND balance >= 0.01;
INSERT INTO bench_ledger (customer_id, amount) VALUES (:customer, -0.01);
COMMIT;
`,
  )
  const run = spawnSync('pgbench', ['-n', '-c', '16', '-j', '2', '-T', String(seconds), '-r', '-f', script, databaseUrl], { encoding: 'utf8' })
  await rm(directory, { recursive: true, force: true })
  if (run.error || run.status !== 0) throw new Error(`pgbench failed (is it installed? Debian: postgresql-client): ${run.error?.message ?? run.stderr}`)
  const tps = Number(/tps = ([\d.]+)/.exec(run.stdout)?.[1])
  const latency = Number(/latency average = ([\d.]+) ms/.exec(run.stdout)?.[1])
  return { name: 'pgbench, one commit per event (ceiling)', requestsPerSecond: tps, p50: Number.isFinite(latency) ? latency : null, p99: null, errors: 0 }
}

async function startService(databaseUrl: string): Promise<{ child: ChildProcess; baseUrl: string; peakRssMegabytes: () => Promise<number> }> {
  const port = await findFreePort()
  // Exactly what `npm start` runs (the bundle, with its node flags), so the measured memory is a deployment's.
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('npm run build failed')
  const start = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
  const nodeArguments = /&& node (.+)$/.exec(start)?.[1]?.split(' ')
  if (!nodeArguments) throw new Error(`cannot read the node command from the start script: ${start}`)
  const child = spawn(process.execPath, nodeArguments, {
    // A secrets key of its own when none is set: webhook endpoint secrets are stored encrypted.
    env: { BILLING_SECRETS_KEY: randomBytes(32).toString('base64'), ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), BILLING_BOOTSTRAP_KEY: bootstrapKey, LOG_LEVEL: 'silent', NODE_ENV: 'production', RATE_LIMIT_PER_SECOND: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const baseUrl = `http://127.0.0.1:${port}`
  await waitFor(`${baseUrl}/readyz`, child)
  return {
    child,
    baseUrl,
    peakRssMegabytes: async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8')
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024
    },
  }
}

async function seed(baseUrl: string) {
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { Authorization: `Bearer ${bootstrapKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json = (await response.json()) as { data: Record<string, string> }
    if (!response.ok) throw new Error(`${method} ${route}: ${JSON.stringify(json)}`)
    return json.data
  }
  const meter = await call('POST', '/v1/usage/meters', { name: 'Bench calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
  await call('POST', '/v1/products', { name: 'Bench', type: 'metered', defaultPrice: { amount: '0.01', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
  const customers: string[] = []
  for (let index = 0; index < 100; index += 1) {
    const customer = await call('POST', '/v1/customers', { name: `bench-${index}` })
    const session = await call('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '1000000', currency: 'USDC' })
    await call('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`, {})
    customers.push(customer.id!)
  }
  return { meterId: meter.id!, customers }
}

async function main() {
  const databaseName = `billing_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${databaseName}`)
  const url = new URL(adminUrl)
  url.pathname = `/${databaseName}`
  const databaseUrl = url.toString()
  const results: Measurement[] = []
  let service: Awaited<ReturnType<typeof startService>> | undefined
  try {
    if (process.argv[2] === 'dashboard') return await runDashboardBenchmark(databaseUrl, startService, bootstrapKey)
    console.log(`benchmarks: ${seconds} s each, ${connections} connections`)
    results.push(await bareHttpCeiling())
    results.push(await pgbenchCeiling(databaseUrl))
    service = await startService(databaseUrl)
    const { meterId, customers } = await seed(service.baseUrl)
    const headers = { authorization: `Bearer ${bootstrapKey}`, 'content-type': 'application/json' }
    let next = 0
    results.push(
      await load('service POST /v1/access/check', {
        url: `${service.baseUrl}/v1/access/check`,
        method: 'POST',
        headers,
        requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ customerId: customers[next++ % customers.length], meterId, quantity: 1 }) }) }],
      }),
    )
    const acknowledged: string[] = []
    results.push(
      await load('service POST /v1/usage/events', {
        url: `${service.baseUrl}/v1/usage/events`,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ customerId: customers[next++ % customers.length], meterId, quantity: 1, idempotencyKey: randomUUID() }),
            }),
            onResponse: (status, body) => {
              if (status === 200) acknowledged.push((JSON.parse(body) as { data: { id: string } }).data.id)
            },
          },
        ],
      }),
    )
    const webhooks = await measureWebhookLatency(service.baseUrl, bootstrapKey)
    const webhookLine = `webhook delivery: commit → receipt p50 ${webhooks.p50} ms, p99 ${webhooks.p99} ms (${webhooks.delivered} of ${webhooks.events} events from 4 concurrent clients received by a local receiver)`
    console.log(webhookLine)
    const peakRss = await service.peakRssMegabytes()

    const check = new pg.Client({ connectionString: databaseUrl })
    await check.connect()
    const stored = Number((await check.query('SELECT COUNT(*) FROM "UsageEvent"')).rows[0].count)
    const acknowledgedStored = Number((await check.query('SELECT COUNT(*) FROM "UsageEvent" WHERE id = ANY($1)', [acknowledged])).rows[0].count)
    const ledgerMismatches = Number(
      (await check.query(`SELECT COUNT(*) FROM "CreditBalance" b WHERE b.balance <> (SELECT COALESCE(SUM(amount), 0) FROM "CreditLedgerEntry" l WHERE l."customerId" = b."customerId" AND l.currency = b.currency)`)).rows[0].count,
    )
    await check.end()

    service.child.kill('SIGTERM')
    const billing: { subscriptions: number; milliseconds: number }[] = []
    for (const count of [2_000, 10_000]) {
      await seedDueSubscriptions(databaseUrl, count)
      // The application without listening, as `npm run billing` does: billing records events, whose `data` the API renders.
      const application = await createApplication({ databaseUrl, publicUrl: 'http://localhost', maxConnections: 4 })
      const started = performance.now()
      const cycle = await runBillingCycle(application.services.database.prisma)
      billing.push({ subscriptions: cycle.renewed, milliseconds: performance.now() - started })
      await application.close()
    }

    const [bare, pgbench, accessCheck, usageEvents] = results as [Measurement, Measurement, Measurement, Measurement]
    const format = (value: number | null, digits = 1) => (value === null || !Number.isFinite(value) ? '—' : value.toFixed(digits))
    console.log('')
    console.log('| measurement | req/s | p50 ms | p99 ms | non-2xx/errors |')
    console.log('|---|---:|---:|---:|---:|')
    for (const result of results) {
      console.log(`| ${result.name} | ${format(result.requestsPerSecond, 0)} | ${format(result.p50)} | ${format(result.p99)} | ${result.errors} |`)
    }
    console.log('')
    console.log(`access check: ${format(accessCheck.requestsPerSecond / bare.requestsPerSecond, 2)} × bare node:http (target ≥ 0.5), p99 ${format(accessCheck.p99)} ms (target ≤ 20)`)
    console.log(`usage events: ${format(usageEvents.requestsPerSecond / pgbench.requestsPerSecond, 2)} × pgbench one-commit-per-event (target ≥ 1.0), p99 ${format(usageEvents.p99)} ms (target ≤ 50)`)
    console.log(webhookLine)
    console.log(`server peak RSS: ${format(peakRss, 0)} MB (target ≤ 300)`)
    for (const run of billing) {
      console.log(`billing run: ${run.subscriptions} due subscriptions renewed and invoiced in ${format(run.milliseconds / 1000, 1)} s (${format(run.subscriptions / (run.milliseconds / 1000), 0)} per second)`)
    }
    const [small, large] = billing as [(typeof billing)[0], (typeof billing)[0]]
    console.log(`billing growth: ${format(large.subscriptions / small.subscriptions, 1)}× the subscriptions took ${format(large.milliseconds / small.milliseconds, 1)}× the time`)
    console.log(
      `durability: ${acknowledged.length} usage events acknowledged, ${acknowledgedStored} of them stored (must be all); ` +
        `${stored - acknowledgedStored} more stored whose answers were still in flight when the load stopped; balances ≠ ledger sum: ${ledgerMismatches}`,
    )
  } finally {
    service?.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 500))
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`)
    await admin.end()
  }
}

await main()
