import { randomUUID } from 'node:crypto'
import http from 'node:http'
import pg from 'pg'
import { afterAll, describe, expect, test } from 'vitest'
import { createApiKey } from '../src/accounts/createApiKey'
import { applyMigrations } from '../src/database/applyMigrations'
import { createDatabaseClient } from '../src/database/createDatabaseClient'
import { systemClock } from '../src/domain/DomainContext'
import { readLedger } from './support/ledger'
import { spawnServer, type ServerProcess } from './support/spawnServer'
import { createTestDatabase } from './support/testDatabase'

// Crashes under load: usage events and purchases at full speed while the server is killed with
// SIGKILL and restarted several times; clients retry every unanswered request with the same
// idempotency keys, as a careful client would. Then: every acknowledged event exists exactly once,
// every retried event exists exactly once, every balance equals its ledger, no period invoiced twice.
// `npm run chaos` runs it longer (CHAOS_KILLS, CHAOS_CLIENTS).

const kills = Number(process.env.CHAOS_KILLS ?? 3)
const clients = Number(process.env.CHAOS_CLIENTS ?? 12)
const servers: ServerProcess[] = []
afterAll(async () => {
  for (const server of servers) await server.stop('SIGKILL')
})

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

function post(port: number, path: string, key: string, body: unknown, idempotencyKey?: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body)
    const request = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, timeout: 10_000, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) } },
      (response) => {
        let data = ''
        response.on('data', (chunk: Buffer) => (data += chunk.toString()))
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(data) })
          } catch (error) {
            reject(error)
          }
        })
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', reject)
    request.end(text)
  })
}

/** Sends until the server answers for real (not a dropped connection, not a 5xx), the same request each time. */
async function untilAnswered(currentPort: () => number, path: string, key: string, body: unknown, idempotencyKey?: string) {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      const response = await post(currentPort(), path, key, body, idempotencyKey)
      // A key whose first request died with its server is free again once its lease runs out.
      const inUse = response.status === 409 && response.body?.error?.code === 'idempotency_key_in_use'
      if (response.status < 500 && !inUse) return { response, attempts: attempt + 1 }
    } catch {
      // the server is down or died mid-request: the same request again, later
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${path} never answered`)
}

describe('crash under load', () => {
  test(`${kills} kill -9s under load: nothing acknowledged lost, nothing doubled`, async () => {
    const databaseUrl = await createTestDatabase()
    await applyMigrations(databaseUrl)
    const database = createDatabaseClient(databaseUrl, { maxConnections: 2 })
    const key = (await createApiKey(database.prisma, systemClock, { accountName: 'chaos' })).key
    let server = await spawnServer({ DATABASE_URL: databaseUrl, RATE_LIMIT_PER_SECOND: '0', BILLING_INTERVAL_SECONDS: '1' })
    servers.push(server)
    const port = server.port
    const setup = async (path: string, body: unknown) => (await untilAnswered(() => port, path, key, body, randomUUID())).response.body.data
    const meter = await setup('/v1/usage/meters', { name: 'Chaos', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    await setup('/v1/products', { name: 'Chaos', type: 'metered', defaultPrice: { amount: '0.01', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
    const customers: string[] = []
    for (let index = 0; index < 4; index += 1) customers.push((await setup('/v1/customers', { name: `chaos-${index}` })).id)

    const acknowledged = new Map<string, string>()
    const purchases: { customerId: string; sessionId: string }[] = []
    let retried = 0
    let stopping = false
    const client = async (clientIndex: number) => {
      for (let sent = 0; !stopping; sent += 1) {
        const customerId = customers[(clientIndex + sent) % customers.length]!
        if (sent % 10 === 0) {
          const session = await untilAnswered(() => port, '/v1/checkout/sessions', key, { mode: 'credits', customerId, amount: '1', currency: 'USDC' }, randomUUID())
          const paid = await untilAnswered(() => port, `/v1/test_helpers/checkout/sessions/${session.response.body.data.id}/pay`, key, {}, randomUUID())
          if (session.attempts > 1 || paid.attempts > 1) retried += 1
          purchases.push({ customerId, sessionId: session.response.body.data.id })
          continue
        }
        const idempotencyKey = randomUUID()
        const { response, attempts } = await untilAnswered(() => port, '/v1/usage/events', key, { customerId, meterId: meter.id, quantity: 1, idempotencyKey })
        if (attempts > 1) retried += 1
        expect(response.status, JSON.stringify(response.body)).toBe(200)
        acknowledged.set(idempotencyKey, response.body.data.id)
      }
    }
    const load = Promise.all(Array.from({ length: clients }, (_, index) => client(index)))
    for (let kill = 0; kill < kills; kill += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await server.stop('SIGKILL')
      await new Promise((resolve) => setTimeout(resolve, 300))
      server = await spawnServer({ DATABASE_URL: databaseUrl, RATE_LIMIT_PER_SECOND: '0', BILLING_INTERVAL_SECONDS: '1' }, port)
      servers.push(server)
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
    stopping = true
    await load

    const check = new pg.Client({ connectionString: databaseUrl })
    await check.connect()
    try {
      const events = await check.query<{ idempotencyKey: string; id: string }>('SELECT "idempotencyKey", id FROM "UsageEvent"')
      const stored = new Map(events.rows.map((row) => [row.idempotencyKey, row.id]))
      // Every acknowledged event exists, with the id the client was given, exactly once (the key is unique).
      for (const [idempotencyKey, id] of acknowledged) expect(stored.get(idempotencyKey)).toBe(id)
      expect(events.rowCount).toBeGreaterThanOrEqual(acknowledged.size)
      const debits = await check.query<{ count: string }>(`SELECT COUNT(*) FROM "CreditLedgerEntry" WHERE kind = 'debit'`)
      expect(Number(debits.rows[0]!.count)).toBe(events.rowCount)
      const grants = await check.query<{ count: string }>(`SELECT COUNT(*) FROM "CreditLedgerEntry" WHERE kind = 'grant'`)
      expect(Number(grants.rows[0]!.count)).toBe(purchases.length)
      for (const customerId of customers) {
        const ledger = await readLedger(databaseUrl, customerId)
        expect(ledger.balance).toBe(ledger.ledgerSum)
      }
      const doubled = await check.query(`SELECT "subscriptionId", "periodStart" FROM "Invoice" GROUP BY 1, 2 HAVING COUNT(*) > 1`)
      expect(doubled.rowCount).toBe(0)
    } finally {
      await check.end()
      await database.close()
    }
    expect(acknowledged.size).toBeGreaterThan(100)
    expect(retried).toBeGreaterThan(0)
    console.log(`chaos: ${kills} kills survived; ${acknowledged.size} usage events and ${purchases.length} purchases acknowledged, ${retried} requests retried after a crash; nothing lost or doubled`)
    // Keys are never written to the logs.
    for (const process of servers) expect(process.output()).not.toContain(key)
  }, 240_000)
})

describe('graceful shutdown', () => {
  test('SIGTERM: in-flight requests finish and are kept, new connections are refused, the process exits 0', async () => {
    const databaseUrl = await createTestDatabase()
    await applyMigrations(databaseUrl)
    const database = createDatabaseClient(databaseUrl, { maxConnections: 2 })
    const key = (await createApiKey(database.prisma, systemClock, { accountName: 'shutdown' })).key
    const server = await spawnServer({ DATABASE_URL: databaseUrl, RATE_LIMIT_PER_SECOND: '0' })
    servers.push(server)
    const customer = (await post(server.port, '/v1/customers', key, {}, randomUUID())).body.data
    const meter = (await post(server.port, '/v1/usage/meters', key, { name: 'Shutdown', aggregation: 'count', unit: 'run', resetPeriod: 'never' }, randomUUID())).body.data
    const inFlight = Array.from({ length: 200 }, () => {
      const idempotencyKey = randomUUID()
      return post(server.port, '/v1/usage/events', key, { customerId: customer.id, meterId: meter.id, quantity: 1, idempotencyKey }).then(
        (response) => ({ idempotencyKey, response }),
        () => ({ idempotencyKey, response: undefined }),
      )
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    const exitCode = server.stop('SIGTERM')
    const results = await Promise.all(inFlight)
    expect(await exitCode).toBe(0)
    const acknowledged = results.filter((result) => result.response?.status === 200)
    expect(acknowledged.length).toBeGreaterThan(0)
    const stored = await database.prisma.usageEvent.findMany({ where: { idempotencyKey: { in: acknowledged.map((result) => result.idempotencyKey) } } })
    expect(stored).toHaveLength(acknowledged.length)
    for (const result of results) if (result.response) expect([200, 503]).toContain(result.response.status)
    await expect(post(server.port, '/v1/customers', key, {}, randomUUID())).rejects.toThrow()
    await database.close()
  }, 120_000)
})
