import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { getIntrospectionQuery } from 'graphql'
import pg from 'pg'
import { findFreePort } from '../../src/findFreePort'

// `npm run bench:memory`: the memory ceiling of a server started exactly as `npm start` starts it
// (the bundle, --max-old-space-size=256) under the worst GraphQL documents we could build, sent
// without a key and then with one, 32 at a time. Prints the peak RSS (VmHWM) after each phase and
// whether the process survived. The keyless rate limit is turned off: the documents' cost is measured,
// not the limiter. MEMORY_REQUESTS (default 3000) per phase; BENCH_DATABASE_URL picks the PostgreSQL.

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
const requestsPerPhase = Number(process.env.MEMORY_REQUESTS ?? 3000)
const concurrency = 32
const bootstrapKey = `bk_test_${randomBytes(16).toString('hex')}`

/** Each call a distinct document (so each is parsed and cached anew). */
const documents: Record<string, (index: number) => string> = {
  // Few tokens, ~99 KB of text: one string literal as long as the body limit lets it be.
  'one 99 KB string literal': (index) => `{ __type(name: "${String(index).padEnd(99_000, 'x')}") { name } }`,
  // As many tokens as the limit allows, all valid: nested introspection selections repeated with distinct aliases (at most 30).
  'the token limit, valid': (index) => `{ ${Array.from({ length: 30 }, (_, alias) => `a${alias}_${index}: __schema { types { name kind fields { name } } }`).join(' ')} }`,
  // The standard introspection query with a distinct comment, so that it is not a cache hit.
  'introspection': (index) => `# ${index}\n${getIntrospectionQuery()}`,
  // The most a document may cost, for a caller with a key (answered with what the database holds).
  'maximum cost with a key': (index) =>
    `query Q${index} { customers(first: 100) { edges { node { id name email metadata subscriptions(first: 20) { edges { node { id status invoices { id amountDue } } } } } } } }`,
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
      for (const [name, build] of Object.entries(documents)) {
        if (name.includes('with a key') && !withKey) continue
        const statuses = new Map<number, number>()
        let next = 0
        const worker = async () => {
          while (next < requestsPerPhase && child.exitCode === null) {
            const index = next++
            const status = await fetch(`${baseUrl}/graphql`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', ...(withKey ? { Authorization: `Bearer ${bootstrapKey}` } : {}) },
              body: JSON.stringify({ query: build(index + (withKey ? requestsPerPhase : 0)) }),
            }).then(
              async (response) => (await response.arrayBuffer(), response.status),
              () => 0,
            )
            statuses.set(status, (statuses.get(status) ?? 0) + 1)
          }
        }
        const started = Date.now()
        await Promise.all(Array.from({ length: concurrency }, worker))
        // The exit may not be reported yet when the process is already gone.
        await new Promise((resolve) => setTimeout(resolve, 200))
        const alive = child.exitCode === null && child.signalCode === null
        const summary = [...statuses].map(([status, count]) => `${status === 0 ? 'no answer' : status}: ${count}`).join(', ')
        console.log(
          `${withKey ? 'with a key   ' : 'without a key'} | ${name.padEnd(26)} | ${requestsPerPhase} in ${((Date.now() - started) / 1000).toFixed(1)} s (${summary}) | ` +
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
