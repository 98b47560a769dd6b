import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { adminDatabaseUrl } from './support/testDatabase'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// The database going away under load (every connection killed by the server, again and again):
// requests answer 503 unavailable with Retry-After, never hang, never a 500; once it is back, the
// service recovers by itself.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

test('connections killed mid-load: only 2xx or 503 with Retry-After, then recovery', async () => {
  const customer = (await app.request('POST', '/v1/customers', { body: {}, idempotencyKey: randomUUID() })).body.data
  const meter = (await app.request('POST', '/v1/usage/meters', { body: { name: 'Outage', aggregation: 'sum', unit: 'request', resetPeriod: 'never' }, idempotencyKey: randomUUID() })).body.data
  const databaseName = new URL(app.databaseUrl).pathname.slice(1)
  const statuses = new Map<number, number>()
  const problems: string[] = []
  let running = true
  const load = async () => {
    for (let index = 0; running; index += 1) {
      const started = Date.now()
      const response =
        index % 3 === 0
          ? await app.request('POST', '/v1/usage/events', { body: { customerId: customer.id, meterId: meter.id, quantity: 1, idempotencyKey: randomUUID() } })
          : index % 3 === 1
            ? await app.request('POST', '/v1/access/check', { body: { customerId: customer.id, meterId: meter.id, quantity: 1 } })
            : await app.request('GET', '/v1/customers?limit=5')
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      if (Date.now() - started > 10_000) problems.push(`a request took ${Date.now() - started} ms`)
      if (response.status >= 500 && (response.status !== 503 || response.body.error?.code !== 'unavailable' || response.headers.get('retry-after') !== '1')) {
        problems.push(`${response.status}: ${JSON.stringify(response.body)}`)
      }
    }
  }
  const workers = Array.from({ length: 8 }, load)

  const killer = new pg.Client({ connectionString: adminDatabaseUrl() })
  await killer.connect()
  await new Promise((resolve) => setTimeout(resolve, 300))
  const outageEnds = Date.now() + 1500
  while (Date.now() < outageEnds) {
    await killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [databaseName])
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await killer.end()

  // Back: within seconds every kind of request succeeds again.
  const recoveredBy = Date.now() + 10_000
  let recovered = false
  while (!recovered && Date.now() < recoveredBy) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    const [event, check, list] = await Promise.all([
      app.request('POST', '/v1/usage/events', { body: { customerId: customer.id, meterId: meter.id, quantity: 1, idempotencyKey: randomUUID() } }),
      app.request('POST', '/v1/access/check', { body: { customerId: customer.id, meterId: meter.id, quantity: 1 } }),
      app.request('GET', '/v1/customers?limit=5'),
    ])
    recovered = event.status === 200 && check.status === 200 && list.status === 200
  }
  running = false
  await Promise.all(workers)
  expect(problems).toEqual([])
  expect(recovered).toBe(true)
  expect(statuses.get(503) ?? 0).toBeGreaterThan(0)
  expect([...statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true)
}, 60_000)
