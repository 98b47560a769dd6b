import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, test } from 'vitest'
import { createApiKey } from '../src/accounts/createApiKey'
import { applyMigrations } from '../src/database/applyMigrations'
import { createDatabaseClient } from '../src/database/createDatabaseClient'
import { systemClock } from '../src/domain/DomainContext'
import { spawnServer, type ServerProcess } from './support/spawnServer'
import { startWebhookReceiver, type WebhookReceiver } from './support/startWebhookReceiver'
import { createTestDatabase } from './support/testDatabase'

// Real server processes (`npm start`) delivering to a real receiver: two processes on one database
// send each attempt once; a process killed with SIGKILL in the middle of a burst loses no event.

const servers: ServerProcess[] = []
const receivers: WebhookReceiver[] = []
afterAll(async () => {
  for (const server of servers) await server.stop('SIGKILL')
  for (const receiver of receivers) await receiver.close()
})

// A short timeout makes the lease of an attempt lost with its process run out in 12 s rather than 25 s.
const serverEnvironment = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  RATE_LIMIT_PER_SECOND: '0',
  BILLING_INTERVAL_SECONDS: '0',
  PIX_INTERVAL_SECONDS: '0',
  WEBHOOK_TIMEOUT_SECONDS: '2',
  LOG_LEVEL: 'silent',
})

async function prepare() {
  const databaseUrl = await createTestDatabase()
  await applyMigrations(databaseUrl)
  const database = createDatabaseClient(databaseUrl, { maxConnections: 2 })
  const key = (await createApiKey(database.prisma, systemClock, { accountName: 'webhooks' })).key
  await database.close()
  const receiver = await startWebhookReceiver()
  receivers.push(receiver)
  return { databaseUrl, key, receiver }
}

async function post(baseUrl: () => string, path: string, key: string, body: unknown): Promise<{ status: number; body: { data: { id: string; secret?: string } } }> {
  const idempotencyKey = randomUUID()
  // The same request until a real answer, as a careful client retries across a crash.
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      const response = await fetch(`${baseUrl()}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      })
      const parsed = await response.json()
      const inUse = response.status === 409 && parsed?.error?.code === 'idempotency_key_in_use'
      if (response.status < 500 && !inUse) return { status: response.status, body: parsed }
    } catch {
      // down, or died mid-request
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${path} never answered`)
}

async function eventIds(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query<{ id: string }>('SELECT id FROM "Event"')).rows.map((row) => row.id)
  } finally {
    await client.end()
  }
}

const receivedIds = (receiver: WebhookReceiver) => receiver.received.map((webhook) => webhook.headers['webhook-id']!)

describe('webhook delivery across processes', () => {
  test('two server processes on one database deliver each attempt once', async () => {
    const { databaseUrl, key, receiver } = await prepare()
    const first = await spawnServer(serverEnvironment(databaseUrl))
    servers.push(first)
    const second = await spawnServer(serverEnvironment(databaseUrl))
    servers.push(second)
    expect((await post(() => first.baseUrl, '/v1/webhook_endpoints', key, { url: receiver.url, events: ['*'] })).status).toBe(201)
    const count = 120
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        while (next < count) {
          const index = next++
          const server = client % 2 === 0 ? first : second
          expect((await post(() => server.baseUrl, '/v1/customers', key, { name: `C${index}` })).status).toBe(201)
        }
      }),
    )
    const ids = await eventIds(databaseUrl)
    expect(ids).toHaveLength(count)
    await receiver.waitFor((received) => received.length >= count, 60_000)
    // Both workers stay awake (NOTIFY and polling); any second send of an attempt would arrive meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 2000))
    expect(receivedIds(receiver).sort()).toEqual(ids.sort())
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const attempts = await client.query<{ attempt: number; count: string }>('SELECT attempt, count(*) FROM "WebhookAttempt" GROUP BY attempt')
      expect(attempts.rows.map((row) => ({ attempt: row.attempt, count: Number(row.count) }))).toEqual([{ attempt: 1, count }])
    } finally {
      await client.end()
    }
  }, 180_000)

  test('kill -9 during a burst of changes: after the restart every committed change\'s event is delivered', async () => {
    const { databaseUrl, key, receiver } = await prepare()
    // A receiver that takes a moment, so that attempts are in flight when the process dies.
    receiver.answer = () => ({ status: 200, delayMs: 300 })
    let server = await spawnServer(serverEnvironment(databaseUrl))
    servers.push(server)
    const port = server.port
    expect((await post(() => server.baseUrl, '/v1/webhook_endpoints', key, { url: receiver.url, events: ['*'] })).status).toBe(201)
    const acknowledged: string[] = []
    let stopping = false
    const load = Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        for (let index = 0; !stopping; index += 1) {
          const response = await post(() => server.baseUrl, '/v1/customers', key, { name: `K${client}-${index}` })
          expect(response.status).toBe(201)
          acknowledged.push(response.body.data.id)
        }
      }),
    )
    // Paced by progress, not by the clock, so that each kill lands in the middle of the burst however loaded the machine is.
    const progress = async (more: number) => {
      const target = acknowledged.length + more
      while (acknowledged.length < target) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    for (let kill = 0; kill < 2; kill += 1) {
      await progress(15)
      await server.stop('SIGKILL')
      server = await spawnServer(serverEnvironment(databaseUrl), port)
      servers.push(server)
    }
    await progress(15)
    stopping = true
    await load

    const ids = await eventIds(databaseUrl)
    expect(ids.length).toBeGreaterThanOrEqual(acknowledged.length)
    await receiver.waitFor((received) => ids.every((id) => received.some((webhook) => webhook.headers['webhook-id'] === id)), 90_000)
    const delivered = new Set(receivedIds(receiver))
    for (const id of ids) expect(delivered.has(id)).toBe(true)
    // Every acknowledged customer's customer.created came, with that customer in it.
    const createdCustomers = new Set(receiver.received.map((webhook) => JSON.parse(webhook.body) as { data: { id: string } }).map((event) => event.data.id))
    for (const customerId of acknowledged) expect(createdCustomers.has(customerId)).toBe(true)
    expect(acknowledged.length).toBeGreaterThanOrEqual(45)
    console.log(`webhooks under kill -9: ${acknowledged.length} changes acknowledged, ${ids.length} events committed, all delivered (${receiver.received.length - delivered.size} duplicates)`)
  }, 240_000)

  test('no secret reaches the process output: create, rotate, and deliveries that succeed and fail', async () => {
    const { databaseUrl, key, receiver } = await prepare()
    let calls = 0
    // One failure, so that a retry's attempt is signed and sent too.
    receiver.answer = () => ((calls += 1) === 1 ? { status: 500, body: 'try again' } : { status: 200 })
    const server = await spawnServer({ ...serverEnvironment(databaseUrl), LOG_LEVEL: 'info', WEBHOOK_RETRY_SCHEDULE_SECONDS: '1' })
    servers.push(server)
    const created = await post(() => server.baseUrl, '/v1/webhook_endpoints', key, { url: receiver.url, events: ['*'] })
    expect(created.status).toBe(201)
    const rotated = await post(() => server.baseUrl, `/v1/webhook_endpoints/${created.body.data.id}/rotate_secret`, key, {})
    expect(rotated.status).toBe(200)
    const secrets = [created.body.data.secret!, rotated.body.data.secret!]
    for (const secret of secrets) expect(secret).toMatch(/^whsec_/)
    for (let index = 0; index < 3; index += 1) expect((await post(() => server.baseUrl, '/v1/customers', key, { name: `Logged ${index}` })).status).toBe(201)
    await receiver.waitFor((received) => received.length >= 4, 60_000)
    await server.stop('SIGTERM')
    const output = server.output()
    expect(output).toContain('"ready"')
    expect(output).not.toContain('whsec_')
    for (const secret of secrets) expect(output).not.toContain(secret.slice('whsec_'.length))
  }, 120_000)
})
