import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { removeExpiredIdempotencyRecords } from '../src/idempotency/removeExpiredIdempotencyRecords'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

const countCustomers = (where: Record<string, unknown>) => app.application.services.database.prisma.customer.count({ where })

describe('the Idempotency-Key header', () => {
  test('a repeat replays the stored response with Idempotent-Replayed, and writes nothing again', async () => {
    const key = randomUUID()
    const body = { externalId: 'idem-1', name: 'Once' }
    const first = await app.request('POST', '/v1/customers', { body, idempotencyKey: key })
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    // Same JSON value, other key order and spacing: still the same request.
    const again = await app.request('POST', '/v1/customers', { rawBody: '{ "name": "Once",  "externalId": "idem-1" }', headers: { 'Content-Type': 'application/json' }, idempotencyKey: key })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(await countCustomers({ externalId: 'idem-1' })).toBe(1)
  })

  test('same key with another body, path or method is 422', async () => {
    const key = randomUUID()
    const created = await app.request('POST', '/v1/customers', { body: { name: 'A' }, idempotencyKey: key })
    expect(created.status).toBe(201)
    expect((await app.request('POST', '/v1/customers', { body: { name: 'B' }, idempotencyKey: key })).body.error.code).toBe('idempotency_key_reused')
    const patch = await app.request('PATCH', `/v1/customers/${created.body.data.id}`, { body: { name: 'A' }, idempotencyKey: key })
    expect(patch.status).toBe(422)
  })

  test('20 concurrent requests with one key create exactly one customer; the others replay or get 409', async () => {
    const key = randomUUID()
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => app.request('POST', '/v1/customers', { body: { externalId: 'race-1', name: 'Race' }, idempotencyKey: key })),
    )
    const created = responses.filter((response) => response.status === 201)
    const busy = responses.filter((response) => response.status === 409)
    expect(created.length + busy.length).toBe(20)
    expect(created.length).toBeGreaterThanOrEqual(1)
    expect(new Set(created.map((response) => response.body.data.id)).size).toBe(1)
    for (const response of busy) expect(response.body.error.code).toBe('idempotency_key_in_use')
    expect(await countCustomers({ externalId: 'race-1' })).toBe(1)
  })

  test('rejected requests are not stored: a corrected request may reuse the key', async () => {
    const key = randomUUID()
    const invalid = await app.request('POST', '/v1/customers', { body: { email: 'nope' }, idempotencyKey: key })
    expect(invalid.status).toBe(400)
    const readOnly = await app.createKey({ scopes: ['read'] })
    expect((await app.request('POST', '/v1/customers', { key: readOnly, body: { name: 'x' }, idempotencyKey: key })).status).toBe(403)
    const corrected = await app.request('POST', '/v1/customers', { body: { email: 'ok@example.com' }, idempotencyKey: key })
    expect(corrected.status).toBe(201)
  })

  test('an error the endpoint answered is stored and replayed; its writes were rolled back', async () => {
    await app.request('POST', '/v1/customers', { body: { externalId: 'taken' }, idempotencyKey: randomUUID() })
    const key = randomUUID()
    const conflict = await app.request('POST', '/v1/customers', { body: { externalId: 'taken' }, idempotencyKey: key })
    expect(conflict.status).toBe(409)
    const replay = await app.request('POST', '/v1/customers', { body: { externalId: 'taken' }, idempotencyKey: key })
    expect(replay.status).toBe(409)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await countCustomers({ externalId: 'taken' })).toBe(1)
  })

  test('keys are scoped to the account', async () => {
    const key = randomUUID()
    const other = await app.createKey({ account: 'idem-other' })
    const mine = await app.request('POST', '/v1/customers', { body: { name: 'mine' }, idempotencyKey: key })
    const theirs = await app.request('POST', '/v1/customers', { key: other, body: { name: 'mine' }, idempotencyKey: key })
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get('idempotent-replayed')).toBeNull()
    expect(theirs.body.data.id).not.toBe(mine.body.data.id)
  })

  test('records older than the 24 h retention are removed, newer ones kept', async () => {
    const key = randomUUID()
    await app.request('POST', '/v1/customers', { body: { name: 'old' }, idempotencyKey: key })
    const prisma = app.application.services.database.prisma
    const now = Date.now()
    const removedNow = await removeExpiredIdempotencyRecords(prisma, { now: () => new Date(now) })
    expect(await prisma.idempotencyRecord.count({ where: { key } })).toBe(1)
    expect(removedNow).toBe(0)
    const later = { now: () => new Date(now + 24 * 60 * 60 * 1000 + 60_000) }
    expect(await removeExpiredIdempotencyRecords(prisma, later)).toBeGreaterThanOrEqual(1)
    expect(await prisma.idempotencyRecord.count({ where: { key } })).toBe(0)
  })

  test('a claim whose process died is taken over after its lease, without doubling', async () => {
    const key = randomUUID()
    const prisma = app.application.services.database.prisma
    const account = await prisma.account.findUniqueOrThrow({ where: { name: 'main' } })
    const body = { name: 'orphan' }
    const { fingerprintRequest } = await import('../src/idempotency/fingerprintRequest')
    await prisma.idempotencyRecord.create({
      data: {
        id: `idem_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
        accountId: account.id,
        key,
        fingerprint: fingerprintRequest('POST', '/v1/customers', body),
        state: 'in_flight',
        leaseToken: 'dead-process',
        leaseExpiresAt: new Date(Date.now() - 1000),
      },
    })
    const taken = await app.request('POST', '/v1/customers', { body, idempotencyKey: key })
    expect(taken.status).toBe(201)
    expect((await app.request('POST', '/v1/customers', { body, idempotencyKey: key })).body.data.id).toBe(taken.body.data.id)
    expect(await countCustomers({ name: 'orphan' })).toBe(1)
  })
})
