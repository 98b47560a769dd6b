import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { getIntrospectionQuery } from 'graphql'
import pg from 'pg'
import { findFreePort } from '../../src/database/findFreePort'

// `npm run bench:memory`: the memory ceiling of a server started exactly as `npm start` starts it
// (the bundle, --max-old-space-size=256) under the worst GraphQL documents we could build, sent
// without a key and then with one, 32 at a time. The keyed documents run against data seeded with SQL
// (100 customers with 100 usage events of ~16 KB metadata each), so that the largest responses the
// per-response budget allows (GRAPHQL_MAX_RESPONSE_BYTES) are really built, 8 and 16 of them at once. Prints
// the peak RSS (VmHWM) after each phase and whether the process survived. The keyless rate limit is
// turned off: the documents' cost is measured, not the limiter. MEMORY_REQUESTS (default 3000) per
// phase of small documents, a tenth of it for the large responses; BENCH_DATABASE_URL picks the PostgreSQL.

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
const requestsPerPhase = Number(process.env.MEMORY_REQUESTS ?? 3000)
const concurrency = 32
const bootstrapKey = `bk_test_${randomBytes(16).toString('hex')}`

interface Phase {
  /** Each call a distinct document (so each is parsed and cached anew). */
  build: (index: number) => string
  /** Sent with the key only. */
  keyed?: boolean
  concurrency: number
  requests: number
}

const seededCustomers = 100
const customerIds = Array.from({ length: seededCustomers }, (_, index) => `cus_big${index + 1}`)

const phases: Record<string, Phase> = {
  // Few tokens, ~99 KB of text: one string literal as long as the body limit lets it be.
  'one 99 KB string literal': { build: (index) => `{ __type(name: "${String(index).padEnd(99_000, 'x')}") { name } }`, concurrency, requests: requestsPerPhase },
  // As many tokens as the limit allows, all valid: nested introspection selections repeated with distinct aliases (at most 30).
  'the token limit, valid': { build: (index) => `{ ${Array.from({ length: 30 }, (_, alias) => `a${alias}_${index}: __schema { types { name kind fields { name } } }`).join(' ')} }`, concurrency, requests: requestsPerPhase },
  // The standard introspection query with a distinct comment, so that it is not a cache hit.
  'introspection': { build: (index) => `# ${index}\n${getIntrospectionQuery()}`, concurrency, requests: requestsPerPhase },
  // The most a document may cost, for a caller with a key, over the seeded customers.
  'maximum cost with a key': {
    build: (index) => `query Q${index} { customers(first: 100) { edges { node { id name email metadata subscriptions(first: 20) { edges { node { id status invoices { id amountDue } } } } } } } }`,
    keyed: true,
    concurrency,
    requests: requestsPerPhase,
  },
  // Just within the response budget: 9 customers × 100 events × ~16.2 KB of metadata ≈ 14.6 MB of JSON, 8 at once.
  '14.6 MB responses, 8 at once': {
    build: (index) => `query Q${index} { customers(first: 9) { edges { node { id usageEvents(first: 100) { edges { node { id quantity metadata } } } } } } }`,
    keyed: true,
    concurrency: 8,
    requests: Math.ceil(requestsPerPhase / 10),
  },
  // The same, 16 at once: before responses in flight had a budget of their own, this took the 256 MB heap down.
  '14.6 MB responses, 16 at once': {
    build: (index) => `query R${index} { customers(first: 9) { edges { node { id usageEvents(first: 100) { edges { node { id quantity metadata } } } } } } }`,
    keyed: true,
    concurrency: 16,
    requests: Math.ceil(requestsPerPhase / 10),
  },
  // nodes with 100 real ids, each with 8 events of metadata (a page reads one row more to know whether there are more: 9 would be over): ≈ 13 MB, 8 at once.
  'nodes(ids:) of 100 real ids, 8 at once': {
    build: (index) => `query Q${index} { nodes(ids: ${JSON.stringify(customerIds)}) { id ... on Customer { name usageEvents(first: 8) { edges { node { id metadata } } } } } }`,
    keyed: true,
    concurrency: 8,
    requests: Math.ceil(requestsPerPhase / 10),
  },
}

/** 100 customers with 100 usage events each, every event with ~16 KB of metadata (33 keys of 480 characters), on the bootstrap key's account. */
async function seedLargeResponses(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "Account" WHERE name = 'default'`)
    const accountId = rows[0]!.id
    await client.query(`INSERT INTO "Meter" (id, "accountId", name, slug, aggregation, unit, "resetPeriod", "createdAt") VALUES ('mtr_big', $1, 'Big', 'big', 'sum', 'request', 'never', now())`, [accountId])
    await client.query(`INSERT INTO "Customer" (id, "accountId", name, "createdAt", "updatedAt") SELECT 'cus_big' || g, $1, 'big ' || g, now(), now() FROM generate_series(1, $2::int) g`, [accountId, seededCustomers])
    await client.query(
      `INSERT INTO "UsageEvent" (id, "accountId", "customerId", "meterId", quantity, "idempotencyKey", fingerprint, metadata, "createdAt")
       SELECT 'evt_big' || c || '_' || e, $1, 'cus_big' || c, 'mtr_big', 1, 'big-' || c || '-' || e, 'f',
         (SELECT jsonb_object_agg('k' || k, repeat(md5(c || '-' || e || '-' || k), 15)) FROM generate_series(1, 33) k),
         now() - e * interval '1 second'
       FROM generate_series(1, $2::int) c, generate_series(1, 100) e`,
      [accountId, seededCustomers],
    )
  } finally {
    await client.end()
  }
}

async function main(): Promise<void> {
  const databaseName = `billing_memory_${process.pid}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${databaseName}`)
  const databaseUrl = new URL(adminUrl)
  databaseUrl.pathname = `/${databaseName}`
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('npm run build failed')
  const start = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
  const nodeArguments = /&& node (.+)$/.exec(start)?.[1]?.split(' ')
  if (!nodeArguments) throw new Error(`cannot read the node command from the start script: ${start}`)
  const port = await findFreePort()
  const child = spawn(process.execPath, nodeArguments, {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      PORT: String(port),
      BILLING_BOOTSTRAP_KEY: bootstrapKey,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_SECOND: '0',
      KEYLESS_RATE_LIMIT_PER_SECOND: '0',
      BILLING_INTERVAL_SECONDS: '0',
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const baseUrl = `http://127.0.0.1:${port}`
  try {
    for (;;) {
      if (await fetch(`${baseUrl}/readyz`).then((response) => response.ok, () => false)) break
      if (child.exitCode !== null) throw new Error(`the server did not start: ${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await seedLargeResponses(databaseUrl.toString())
    let lastPeak = 0
    const peakRss = async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
      lastPeak = Math.max(lastPeak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024)
      return lastPeak
    }
    // Sampled while requests run, so that the peak before a crash is known too.
    const sampler = setInterval(() => void peakRss(), 50)
    console.log(`started: peak RSS ${(await peakRss()).toFixed(0)} MB`)
    for (const withKey of [false, true]) {
      for (const [name, phase] of Object.entries(phases)) {
        if (phase.keyed && !withKey) continue
        // An answer is told by its status and, when it carries errors, the first error's code.
        const statuses = new Map<string, number>()
        let next = 0
        const worker = async () => {
          while (next < phase.requests && child.exitCode === null) {
            const index = next++
            const outcome = await fetch(`${baseUrl}/graphql`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', ...(withKey ? { Authorization: `Bearer ${bootstrapKey}` } : {}) },
              body: JSON.stringify({ query: phase.build(index + (withKey ? requestsPerPhase : 0)) }),
            }).then(
              async (response) => {
                const text = await response.text()
                const code = /"code":"(\w+)"/.exec(text.slice(0, 2000))?.[1]
                return code ? `${response.status} ${code}` : String(response.status)
              },
              () => 'no answer',
            )
            statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1)
          }
        }
        const started = Date.now()
        await Promise.all(Array.from({ length: phase.concurrency }, worker))
        // The exit may not be reported yet when the process is already gone.
        await new Promise((resolve) => setTimeout(resolve, 200))
        const alive = child.exitCode === null && child.signalCode === null
        const summary = [...statuses].map(([outcome, count]) => `${outcome}: ${count}`).join(', ')
        console.log(
          `${withKey ? 'with a key   ' : 'without a key'} | ${name.padEnd(38)} | ${phase.requests} (${phase.concurrency} at once) in ${((Date.now() - started) / 1000).toFixed(1)} s (${summary}) | ` +
            (alive ? `peak RSS so far ${(await peakRss()).toFixed(0)} MB` : `the server died (peak RSS seen ${lastPeak.toFixed(0)} MB): ${stderr.split('\n').find((line) => /heap|memory/i.test(line)) ?? stderr.slice(-300)}`),
        )
        if (!alive) {
          clearInterval(sampler)
          return
        }
      }
    }
    clearInterval(sampler)
  } finally {
    child.kill('SIGKILL')
    await new Promise((resolve) => setTimeout(resolve, 500))
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`)
    await admin.end()
  }
}

await main()
