import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Batcher } from '../src/domain/Batcher'
import { DomainError } from '../src/domain/DomainError'
import { contextForAccount } from '../src/domain/DomainContext'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 8 §2 and issue 9 §3: callers of every account share the hot paths' batches, so one caller's
// input must never fail another's request, and every caller is answered.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

async function ok(key: string, method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

/** A customer with credits and a meter priced at `unitPrice` USDC per unit, on the key's account. */
async function pricedMeter(key: string, unitPrice = '0.001') {
  const customer = await ok(key, 'POST', '/v1/customers', { name: 'Buyer' })
  const meter = await ok(key, 'POST', '/v1/usage/meters', { name: `Calls ${randomUUID().slice(0, 6)}`, aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
  await ok(key, 'POST', '/v1/products', {
    name: 'Metered API',
    type: 'metered',
    defaultPrice: { amount: unitPrice, currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id },
  })
  const session = await ok(key, 'POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '100', currency: 'USDC' })
  await ok(key, 'POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
  return { customerId: customer.id as string, meterId: meter.id as string }
}

describe('Batcher', () => {
  test('an executor that answers fewer outcomes than items still answers every caller', async () => {
    const batcher = new Batcher<number, number>(async (items) => items.slice(1).map((item) => ({ value: item * 10 })))
    const settled = await Promise.allSettled([1, 2, 3].map((item) => batcher.submit(item)))
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected'])
    expect(settled.slice(0, 2).map((result) => (result as PromiseFulfilledResult<number>).value)).toEqual([20, 30])
  })

  test('a batch that fails for one item is split: that item alone fails, every other one succeeds', async () => {
    const runs: number[][] = []
    const batcher = new Batcher<number, number>(
      async (items) => {
        runs.push(items)
        if (items.includes(13)) throw new Error('poisoned')
        return items.map((item) => ({ value: item }))
      },
      { isIsolatable: () => true, describeItemFailure: () => new DomainError('validation_error', 'refused') },
    )
    const items = Array.from({ length: 40 }, (_, index) => index)
    const settled = await Promise.allSettled(items.map((item) => batcher.submit(item)))
    expect(settled.filter((result) => result.status === 'rejected')).toHaveLength(1)
    const failure = settled[13] as PromiseRejectedResult
    expect(failure.reason).toBeInstanceOf(DomainError)
    expect(failure.reason.code).toBe('validation_error')
    expect(settled.filter((result, index) => index !== 13 && result.status === 'fulfilled')).toHaveLength(39)
    // Bisection: far fewer runs than one per item.
    expect(runs.length).toBeLessThan(items.length)
  })
})

describe('one caller cannot fail another sharing its batch', () => {
  test('values PostgreSQL refuses, past the door, fail only their own item in a shared batch', async () => {
    const { customerId, meterId } = await pricedMeter(app.key)
    const account = await app.application.services.database.prisma.account.findFirstOrThrow({ where: { name: 'main' } })
    const context = contextForAccount(app.application.services.database.prisma, account)
    const recorder = app.application.services.usageEvents
    // The domain does not check text (the door does): this is what a missed check would send.
    const good = Array.from({ length: 30 }, () => ({ customerId, meterId, quantity: 1, idempotencyKey: randomUUID() }))
    const poisoned = Array.from({ length: 3 }, () => ({ customerId, meterId, quantity: 1, idempotencyKey: randomUUID(), metadata: { a: '\udfff' } }))
    const submitted = [...good.slice(0, 10), poisoned[0]!, ...good.slice(10, 20), poisoned[1]!, ...good.slice(20), poisoned[2]!]
    const settled = await Promise.allSettled(submitted.map((event) => recorder.record(context, event)))
    const outcomeOf = (event: (typeof submitted)[number]) => settled[submitted.indexOf(event)]!
    expect(good.map((event) => outcomeOf(event).status)).toEqual(good.map(() => 'fulfilled'))
    for (const event of poisoned) {
      const outcome = outcomeOf(event) as PromiseRejectedResult
      expect(outcome.status).toBe('rejected')
      expect(outcome.reason).toMatchObject({ code: 'validation_error' })
    }
    const stored = await app.application.services.database.prisma.usageEvent.count({ where: { idempotencyKey: { in: submitted.map((event) => event.idempotencyKey) } } })
    expect(stored).toBe(30)
  })

  test('a burst of good usage events and checks from one account with poisoned ones from another: no 5xx for the good ones', async () => {
    const otherKey = await app.createKey({ account: 'attacker' })
    const { customerId, meterId } = await pricedMeter(app.key)
    const theirs = await pricedMeter(otherKey)
    const goodEvents = Array.from({ length: 120 }, () =>
      app.request('POST', '/v1/usage/events', { body: { customerId, meterId, quantity: 1, idempotencyKey: randomUUID() } }),
    )
    const goodChecks = Array.from({ length: 120 }, () => app.request('POST', '/v1/access/check', { body: { customerId, meterId, quantity: 1 } }))
    const poisonedBodies = [
      { customerId: theirs.customerId, meterId: theirs.meterId, quantity: 1, idempotencyKey: randomUUID(), metadata: { a: '\udfff' } },
      { customerId: '\udfff', meterId: theirs.meterId, quantity: 1, idempotencyKey: randomUUID() },
      { customerId: theirs.customerId, meterId: theirs.meterId, quantity: 1, idempotencyKey: `key\ud800` },
      { customerId: theirs.customerId, meterId: theirs.meterId, quantity: 1, idempotencyKey: randomUUID(), metadata: { '\udc00': 'x' } },
    ]
    const poisoned = Array.from({ length: 60 }, (_, index) => [
      app.request('POST', '/v1/usage/events', { key: otherKey, body: poisonedBodies[index % poisonedBodies.length] }),
      app.request('POST', '/v1/access/check', { key: otherKey, body: { customerId: '\udfff', meterId: theirs.meterId, quantity: 1 } }),
      app.graphql('mutation($input: RecordUsageEventInput!) { recordUsageEvent(input: $input) { id } }', { input: poisonedBodies[index % poisonedBodies.length] }, otherKey),
    ]).flat()
    const [events, checks, refused] = await Promise.all([Promise.all(goodEvents), Promise.all(goodChecks), Promise.all(poisoned)])
    expect(events.map((response) => response.status)).toEqual(events.map(() => 200))
    expect(checks.map((response) => response.status)).toEqual(checks.map(() => 200))
    for (const response of refused) {
      const code = response.body.error?.code ?? response.body.errors?.[0]?.extensions?.code
      expect(code, JSON.stringify(response.body)).toBe('validation_error')
    }
    expect(refused.filter((response) => response.body.error).every((response) => response.status === 400)).toBe(true)
  })

  test('prices are bounded so that no usage cost can overflow numeric(38,6)', async () => {
    const meter = await ok(app.key, 'POST', '/v1/usage/meters', { name: `Big ${randomUUID().slice(0, 6)}`, aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    const tooBig = await app.request('POST', '/v1/products', {
      idempotencyKey: randomUUID(),
      body: { name: 'Huge', type: 'metered', defaultPrice: { amount: '9'.repeat(24), currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } },
    })
    expect(tooBig.status).toBe(400)
    expect(tooBig.body.error).toMatchObject({ code: 'validation_error', param: 'defaultPrice.amount' })
    // The largest accepted price times the largest quantity is recorded (and debited) exactly.
    const { customerId, meterId } = await pricedMeter(app.key, '9'.repeat(15))
    const event = await app.request('POST', '/v1/usage/events', { body: { customerId, meterId, quantity: 1e12, idempotencyKey: randomUUID() } })
    expect(event.status, JSON.stringify(event.body)).toBe(200)
    const balance = await ok(app.key, 'GET', `/v1/customers/${customerId}/credits?currency=USDC`)
    // 100 bought, 999999999999999 × 10^12 used.
    expect(balance.balance).toBe('-999999999999998999999999900.000000')
  })
})
