import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// The hourly usage rollup that the all-customers usage series reads: kept by the usage hot path in the
// events' own transaction, equal to the events themselves (replays and refused events not counted,
// concurrent batches summed across shards), and a series over a range that does not start or end on the
// hour equal to summing the events directly.

let app: TestApplication
let database: pg.Client
beforeAll(async () => {
  app = await startTestApplication()
  database = new pg.Client({ connectionString: app.databaseUrl })
  await database.connect()
})
afterAll(async () => {
  await database?.end()
  await app?.close()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

describe('usage rollup', () => {
  test('equals the events, and a series over a range off the hour equals summing the events', async () => {
    const summed = await ok('POST', '/v1/usage/meters', { name: 'Rolled calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    const counted = await ok('POST', '/v1/usage/meters', { name: 'Rolled runs', aggregation: 'count', unit: 'run', resetPeriod: 'never' })
    const customers = await Promise.all(Array.from({ length: 3 }, (_, index) => ok('POST', '/v1/customers', { name: `Rolled ${index}` })))
    const replayedKey = randomUUID()
    // Many at once, so that they arrive in several concurrent batches (and shards).
    await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        ok('POST', '/v1/usage/events', {
          customerId: customers[index % 3].id,
          meterId: index % 2 === 0 ? summed.id : counted.id,
          quantity: (index % 7) + 0.25,
          idempotencyKey: index === 0 ? replayedKey : randomUUID(),
        }),
      ),
    )
    // A replay is the same event: nothing more is rolled up.
    await ok('POST', '/v1/usage/events', { customerId: customers[0].id, meterId: summed.id, quantity: 0.25, idempotencyKey: replayedKey })
    // A refused event (unknown customer) records nothing.
    expect((await app.request('POST', '/v1/usage/events', { body: { customerId: 'cus_nobody', meterId: summed.id, quantity: 5, idempotencyKey: randomUUID() } })).status).toBe(404)

    const mismatches = await database.query(`
      WITH events AS (
        SELECT "accountId", "meterId", date_trunc('hour', "createdAt", 'UTC') AS hour, sum(quantity) AS quantity, count(*) AS events
        FROM "UsageEvent" GROUP BY 1, 2, 3),
      rollup AS (SELECT "accountId", "meterId", hour, sum(quantity) AS quantity, sum(events) AS events FROM "UsageRollup" GROUP BY 1, 2, 3)
      SELECT * FROM events FULL JOIN rollup USING ("accountId", "meterId", hour)
      WHERE events.quantity IS DISTINCT FROM rollup.quantity OR events.events IS DISTINCT FROM rollup.events`)
    expect(mismatches.rows).toEqual([])
    const totals = await database.query<{ quantity: string; events: string }>(`SELECT sum(quantity)::text AS quantity, sum(events)::text AS events FROM "UsageRollup" WHERE "meterId" = $1`, [summed.id])
    // Even indexes 0, 2, …, 58: quantities (index % 7) + 0.25.
    const expected = Array.from({ length: 30 }, (_, position) => ((position * 2) % 7) + 0.25).reduce((sum, value) => sum + value, 0)
    expect(Number(totals.rows[0]!.quantity)).toBe(expected)
    expect(totals.rows[0]!.events).toBe('30')

    // Ranges that start and end inside an hour (and one inside a single hour): rollup and edges together
    // give exactly what the events sum to.
    const [{ first, last }] = (await database.query<{ first: Date; last: Date }>(`SELECT min("createdAt") AS first, max("createdAt") AS last FROM "UsageEvent"`)).rows as [{ first: Date; last: Date }]
    const ranges = [
      { from: new Date(first.getTime() - 90 * 60_000), to: new Date(last.getTime() + 150 * 60_000), bucket: 'hour' },
      { from: new Date(first.getTime() - 1), to: new Date(last.getTime() + 1), bucket: 'hour' },
      { from: new Date(first.getTime() - 26 * 3_600_000), to: new Date(last.getTime() + 3_600_000), bucket: 'day' },
      { from: new Date(last.getTime()), to: new Date(last.getTime() + 1), bucket: 'hour' },
    ]
    for (const range of ranges) {
      let pointsSeen = 0
      for (const [meter, measure] of [[summed, 'sum(quantity)'], [counted, 'count(*)::numeric']] as const) {
        const answer = await app.graphql(
          'query($meterId: ID!, $from: DateTime!, $to: DateTime!, $bucket: MetricsBucket!) { metrics(currency: USDC, from: $from, to: $to, bucket: $bucket) { usage(meterId: $meterId) { start quantity } } }',
          { meterId: meter.id, from: range.from.toISOString(), to: range.to.toISOString(), bucket: range.bucket },
        )
        expect(answer.body.errors).toBeUndefined()
        const direct = await database.query<{ start: Date; quantity: string }>(
          `SELECT date_trunc($4, "createdAt", 'UTC') AS start, ${measure}::text AS quantity FROM "UsageEvent"
           WHERE "meterId" = $1 AND "createdAt" >= $2 AND "createdAt" < $3 GROUP BY 1`,
          [meter.id, range.from, range.to, range.bucket],
        )
        const nonZero = answer.body.data.metrics.usage.filter((point: { quantity: string }) => point.quantity !== '0')
        expect(nonZero.map((point: { start: string; quantity: string }) => [point.start, Number(point.quantity)])).toEqual(
          direct.rows.map((row) => [row.start.toISOString(), Number(row.quantity)]).sort(),
        )
        pointsSeen += nonZero.length
      }
      expect(pointsSeen).toBeGreaterThan(0)
    }
  })
})
