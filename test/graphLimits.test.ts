import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApiKey } from '../src/accounts/createApiKey'
import { createDatabaseClient } from '../src/database/createDatabaseClient'
import { systemClock } from '../src/domain/DomainContext'
import { spawnServer, type ServerProcess } from './support/spawnServer'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { createTestDatabase } from './support/testDatabase'

// Issue 8 §1: `nodes(ids:)` is capped and resolved with one query per type; the cost rule counts the
// page sizes a query will really run with (variables and defaults); and a response is bounded in bytes,
// so 100 customers × 100 usage events of 16 KB metadata are a clear error, not an exhausted heap.

describe('nodes and the cost rule', () => {
  let app: TestApplication
  let counting = false
  const statements: string[] = []
  beforeAll(async () => {
    app = await startTestApplication({ onQuery: (sql) => (counting ? statements.push(sql) : undefined) })
  })
  afterAll(async () => {
    await app.close()
  })

  async function counted<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    statements.length = 0
    counting = true
    try {
      return { result: await run(), statements: [...statements] }
    } finally {
      counting = false
    }
  }

  test('nodes: 100 ids of 3 types cost one query per type; 101 ids are refused; other accounts\' ids are null', async () => {
    const ids: string[] = []
    const customers: string[] = []
    for (let index = 0; index < 34; index += 1) {
      const response = await app.request('POST', '/v1/customers', { body: { name: `node-${index}` }, idempotencyKey: randomBytes(8).toString('hex') })
      customers.push(response.body.data.id)
    }
    const meters: string[] = []
    for (let index = 0; index < 33; index += 1) {
      const response = await app.request('POST', '/v1/usage/meters', { body: { name: `Node meter ${index}`, aggregation: 'sum', unit: 'request', resetPeriod: 'never' }, idempotencyKey: randomBytes(8).toString('hex') })
      meters.push(response.body.data.id)
    }
    const products: string[] = []
    for (let index = 0; index < 32; index += 1) {
      const response = await app.request('POST', '/v1/products', { body: { name: `Node product ${index}`, type: 'one_time', defaultPrice: { amount: '1', currency: 'USDC', model: 'one_time' } }, idempotencyKey: randomBytes(8).toString('hex') })
      products.push(response.body.data.id)
    }
    const otherKey = await app.createKey({ account: 'nodes-neighbour' })
    const foreign = (await app.request('POST', '/v1/customers', { key: otherKey, body: { name: 'not yours' }, idempotencyKey: randomBytes(8).toString('hex') })).body.data.id
    ids.push(...customers, ...meters, ...products, foreign)
    expect(ids).toHaveLength(100)

    const query = 'query($ids: [ID!]!) { nodes(ids: $ids) { id __typename ... on Customer { customerName: name } ... on Meter { name } ... on Product { name } } }'
    const { result, statements: run } = await counted(() => app.graphql(query, { ids }))
    expect(result.body.errors).toBeUndefined()
    const nodes = result.body.data.nodes as ({ id: string; __typename: string; name: string } | null)[]
    expect(nodes.slice(0, 99).map((node) => node?.id)).toEqual(ids.slice(0, 99))
    expect(nodes[0]).toMatchObject({ __typename: 'Customer', customerName: 'node-0' })
    expect(nodes[40]).toMatchObject({ __typename: 'Meter', name: 'Node meter 6' })
    expect(nodes[98]).toMatchObject({ __typename: 'Product', name: 'Node product 31' })
    expect(nodes[99]).toBeNull()
    const lookups = run.filter((sql) => /FROM "public"\."(Customer|Meter|Product)"/.test(sql))
    expect(lookups.length).toBeLessThanOrEqual(3)

    const tooMany = await app.graphql(query, { ids: [...ids, customers[0]] })
    expect(tooMany.body.errors[0]).toMatchObject({ extensions: { code: 'validation_error', param: 'ids' } })
    expect(tooMany.body.errors[0].message).toMatch(/at most 100/)
  })

  test('the cost counts first given as a variable: 500 × 100 is refused before anything runs, 50 × 50 runs', async () => {
    const query = 'query($a: Int, $b: Int) { customers(first: $a) { edges { node { id usageEvents(first: $b) { edges { node { id quantity } } } } } } }'
    const { result: refused, statements: run } = await counted(() => app.graphql(query, { a: 500, b: 100 }))
    expect(refused.status).toBe(400)
    expect(refused.body.errors[0]).toMatchObject({ message: expect.stringMatching(/smaller pages/), extensions: { code: 'validation_error' } })
    expect(refused.body.data).toBeUndefined()
    expect(run.filter((sql) => /"Customer"|"UsageEvent"/.test(sql))).toEqual([])

    const allowed = await app.graphql(query, { a: 50, b: 50 })
    expect(allowed.body.errors).toBeUndefined()
    expect(allowed.body.data.customers.edges.length).toBeGreaterThan(0)

    // A variable's default counts as its value; no `first` at all counts the default page (100).
    const byDefault = await app.graphql('query($a: Int = 500) { customers(first: $a) { edges { node { usageEvents(first: 100) { edges { node { id } } } } } } }')
    expect(byDefault.body.errors[0].message).toMatch(/smaller pages/)
    const unsized = await app.graphql('{ customers(first: 500) { edges { node { usageEvents { edges { node { id } } } } } } }')
    expect(unsized.body.errors[0].message).toMatch(/smaller pages/)
    // `last` counts like `first`; so do the ids given to nodes.
    const backward = await app.graphql('query($b: Int) { customers(last: 500) { edges { node { invoices(last: $b) { totalCount edges { node { id } } } } } } }', { b: 100 })
    expect(backward.body.errors[0].message).toMatch(/smaller pages/)
    const manyNodes = await app.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { ... on Customer { usageEvents(first: 500) { edges { node { id } } } } } }', { ids: Array.from({ length: 100 }, () => 'cus_x') })
    expect(manyNodes.body.errors[0].message).toMatch(/smaller pages/)
  })

  test('metrics series count their buckets, topCustomers its limit, plain lists their items: expensive documents are refused before running, a dashboard runs', async () => {
    const refusedBeforeRunning = async (query: string, variables: Record<string, unknown> = {}) => {
      const { result, statements: run } = await counted(() => app.graphql(query, variables))
      expect(result.status, JSON.stringify(result.body)).toBe(400)
      expect(result.body.errors[0]).toMatchObject({ message: expect.stringMatching(/smaller pages/), extensions: { code: 'validation_error' } })
      expect(run.filter((sql) => /"Transaction"|"Subscription"|"Customer"|"Invoice"|"UsageEvent"/.test(sql))).toEqual([])
    }
    // 1,000 hourly buckets, three series, ten aliases: 70,000 points, not 10 fields.
    const series = 'metrics(currency: USDC, from: $from, to: $to, bucket: hour) { revenue { start amount } mrrSeries { start amount } subscriptionMovements { start created canceled } }'
    const aliased = `query($from: DateTime, $to: DateTime) { ${Array.from({ length: 10 }, (_, index) => `m${index}: ${series}`).join(' ')} }`
    const range = { from: '2026-01-01T00:00:00Z', to: '2026-02-11T16:00:00Z' }
    await refusedBeforeRunning(aliased, range)
    // The same with a 30-day range by day is 30 points a series.
    const daily = await app.graphql(aliased.replaceAll('bucket: hour', 'bucket: day'), { from: '2026-01-01T00:00:00Z', to: '2026-01-31T00:00:00Z' })
    expect(daily.body.errors).toBeUndefined()
    expect(daily.body.data.m9.revenue).toHaveLength(30)
    // topCustomers counts its limit, and each customer's links below it.
    const top = 'topCustomers(by: revenue, limit: 50) { total customer { name usageEvents(first: 100) { edges { node { id quantity meter { name } } } } } }'
    await refusedBeforeRunning(`{ metrics(currency: USDC) { a: ${top} b: ${top} c: ${top} } }`)
    // A plain list (a subscription's invoices, an invoice's transactions and lines) counts more than one item.
    await refusedBeforeRunning('{ subscriptions(first: 100) { edges { node { invoices { transactions { invoice { lines { description amount } } } } } } } }')

    // The README's dashboard document runs.
    const meter = await app.request('POST', '/v1/usage/meters', { body: { name: 'Cost calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' }, idempotencyKey: randomBytes(8).toString('hex') })
    const dashboard = await app.graphql(
      `query Dashboard($meterId: ID!) {
        metrics(currency: USDC, from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00Z", bucket: day) {
          mrr arr revenue { start amount } mrrSeries { start amount } subscriptionsByStatus { status count }
          subscriptionMovements { start created canceled } usage(meterId: $meterId) { start quantity }
          topCustomers(by: usage, meterId: $meterId, limit: 5) { total customer { name email } }
          credits { liabilities debts } invoices { open openCount overdue overdueCount }
        }
        subscriptions(first: 10) { edges { node { status customer { name } price { amount currency interval } invoices { amountDue status } } } }
      }`,
      { meterId: meter.body.data.id },
    )
    expect(dashboard.body.errors).toBeUndefined()
    expect(dashboard.body.data.metrics.mrrSeries).toHaveLength(30)
  })
})

describe('a response is bounded in bytes (a real server with the 256 MB heap of npm start)', () => {
  let server: ServerProcess
  const key = `bk_test_${randomBytes(16).toString('hex')}`
  let databaseUrl: string
  /** Keys of two more accounts, each with the 9 customers the largest answer reads. */
  const otherKeys: string[] = []

  beforeAll(async () => {
    databaseUrl = await createTestDatabase()
    server = await spawnServer({
      DATABASE_URL: databaseUrl,
      BILLING_BOOTSTRAP_KEY: key,
      RATE_LIMIT_PER_SECOND: '0',
      BILLING_INTERVAL_SECONDS: '0',
      // Room for two of the largest answers (about 14.6 MB each), and an account's share for one.
      GRAPHQL_MAX_RESPONSE_BYTES_IN_FLIGHT: '32000000',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=256`,
    })
    const database = createDatabaseClient(databaseUrl, { maxConnections: 1 })
    try {
      for (const accountName of ['second', 'third']) otherKeys.push((await createApiKey(database.prisma, systemClock, { accountName })).key)
    } finally {
      await database.close()
    }
    // 100 customers with 100 usage events each, every event with ~16 KB of metadata (what the
    // contract allows: 50 keys of 500 characters would be 25 KB), written with SQL.
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      for (const [name, customers] of [['default', 100], ['second', 9], ['third', 9]] as const) {
        const { rows } = await client.query(`SELECT id FROM "Account" WHERE name = $1`, [name])
        const accountId = rows[0].id as string
        await client.query(`INSERT INTO "Meter" (id, "accountId", name, slug, aggregation, unit, "resetPeriod", "createdAt") VALUES ('mtr_big' || $2, $1, 'Big', 'big', 'sum', 'request', 'never', now())`, [accountId, name])
        await client.query(`INSERT INTO "Customer" (id, "accountId", name, "createdAt", "updatedAt") SELECT 'cus_big' || $3 || g, $1, 'big ' || g, now(), now() FROM generate_series(1, $2::int) g`, [accountId, customers, name])
        await client.query(
          `INSERT INTO "UsageEvent" (id, "accountId", "customerId", "meterId", quantity, "idempotencyKey", fingerprint, metadata, "createdAt")
           SELECT 'evt_big' || $3 || c || '_' || e, $1, 'cus_big' || $3 || c, 'mtr_big' || $3, 1, 'big-' || c || '-' || e, 'f',
             (SELECT jsonb_object_agg('k' || k, repeat(md5(c || '-' || e || '-' || k), 15)) FROM generate_series(1, 33) k),
             now() - e * interval '1 second'
           FROM generate_series(1, $2::int) c, generate_series(1, 100) e`,
          [accountId, customers, name],
        )
      }
    } finally {
      await client.end()
    }
  }, 180_000)
  afterAll(async () => {
    await server?.stop('SIGKILL')
  })

  async function postGraphQL(query: string, callerKey = key): Promise<{ status: number; body: { errors?: { message: string; extensions?: { code?: string } }[]; data?: any } }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- response JSON
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${callerKey}` },
      body: JSON.stringify({ query }),
    })
    return { status: response.status, body: (await response.json()) as never }
  }

  test('100 × 100 events with 16 KB metadata: a clear error, several times over, and the server stays up', async () => {
    const everything = '{ customers(first: 100) { edges { node { id usageEvents(first: 100) { edges { node { id metadata } } } } } } }'
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await postGraphQL(everything)
      expect(answer.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/too large/), extensions: { code: 'validation_error' } })
    }
    // The same lists without metadata (what a dashboard usually shows) are small and run.
    const light = await postGraphQL('{ customers(first: 100) { edges { node { id usageEvents(first: 100) { totalCount edges { node { id quantity } } } } } } }')
    expect(light.body.errors).toBeUndefined()
    expect(light.body.data.customers.edges).toHaveLength(100)
    expect(light.body.data.customers.edges[0].node.usageEvents).toMatchObject({ totalCount: 100 })
    expect(light.body.data.customers.edges[0].node.usageEvents.edges).toHaveLength(100)
    // And metadata for what fits the budget is read and returned whole.
    const some = await postGraphQL('{ customers(first: 5) { edges { node { usageEvents(first: 100) { edges { node { metadata } } } } } } }')
    expect(some.body.errors).toBeUndefined()
    expect(Object.keys(some.body.data.customers.edges[4].node.usageEvents.edges[99].node.metadata)).toHaveLength(33)

    expect(server.child.exitCode).toBeNull()
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
    expect(server.output()).not.toMatch(/heap limit|Maximum call stack/i)
  }, 180_000)

  // Each response within its own budget: 9 customers × 100 events × ~16.2 KB ≈ 14.6 MB. Sixteen of
  // them at once took this 256 MB heap down before responses in flight had a budget (48 MB) of their own.
  const largest = '{ customers(first: 9) { edges { node { id usageEvents(first: 100) { edges { node { id metadata } } } } } } }'

  /** Sends `largest` and stops reading once the answer begins: the server cannot finish sending it, so its bytes stay in flight. */
  function stallOnLargest(callerKey = key): Promise<{ socket: Socket; statusLine: string }> {
    const body = JSON.stringify({ query: largest })
    const socket = connect(server.port, '127.0.0.1')
    socket.write(`POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer ${callerKey}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
    return new Promise((resolve, reject) => {
      socket.once('error', reject)
      socket.once('data', (chunk: Buffer) => {
        socket.pause()
        resolve({ socket, statusLine: chunk.toString('latin1').split('\r\n')[0]! })
      })
    })
  }

  test('responses in flight are bounded together, an account to half of them: past either a 503 unavailable with Retry-After; the bytes come back when a response is finished', async () => {
    const refusedWith = async (callerKey: string) => {
      const refused = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${callerKey}` }, body: JSON.stringify({ query: largest }) })
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('1')
      const refusal = (await refused.json()) as { errors: { message: string; extensions: { code: string } }[] }
      expect(refusal.errors[0]).toMatchObject({ message: expect.stringMatching(/too many large responses/), extensions: { code: 'unavailable' } })
    }
    // One unread answer of the first account holds its share (16 of 32 MB): its second does not fit.
    const stalled = [await stallOnLargest()]
    await refusedWith(key)
    // Another account finds the other half; a third one then finds none.
    stalled.push(await stallOnLargest(otherKeys[0]))
    expect(stalled.map((answer) => answer.statusLine)).toEqual(Array(2).fill('HTTP/1.1 200 OK'))
    await refusedWith(otherKeys[1]!)
    // A small answer still passes meanwhile: only bytes are counted, not requests.
    expect((await postGraphQL('{ customers(first: 3) { edges { node { id } } } }', otherKeys[1])).body.errors).toBeUndefined()

    for (const { socket } of stalled) socket.destroy()
    // Once their connections are gone their bytes are given back, and the largest answer runs again.
    let again = await postGraphQL(largest)
    for (let attempt = 0; again.status === 503 && attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      again = await postGraphQL(largest)
    }
    expect(again.status).toBe(200)
    expect(again.body.data.customers.edges).toHaveLength(9)
    expect(again.body.data.customers.edges[8].node.usageEvents.edges).toHaveLength(100)
  }, 180_000)

  test('sixteen of the largest responses at once: each a whole answer or a 503 with Retry-After, and the process stays up', async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const response = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` }, body: JSON.stringify({ query: largest }) })
        const body = (await response.json()) as { data?: { customers: { edges: unknown[] } | null }; errors?: { extensions: { code: string } }[] }
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body }
      }),
    )
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.body.data?.customers?.edges).toHaveLength(9)
      else expect(answer).toMatchObject({ status: 503, retryAfter: '1', body: { errors: [{ extensions: { code: 'unavailable' } }] } })
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    expect(server.child.exitCode).toBeNull()
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200)
    expect(server.output()).not.toMatch(/heap limit|Maximum call stack/i)
  }, 180_000)
})
