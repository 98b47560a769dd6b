import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { maxPeriodsPerAdvance } from '../src/billing/advanceClock'
import { classifyAndLog } from '../src/logging/log'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 8 §1: a clock advance is bounded before it starts work, and a transaction that runs out of
// time is a logged 500, not a 503 that invites the same heavy retry.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

async function ok(method: string, path: string, body: unknown, key: string) {
  const response = await app.request(method, path, { key, body, idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

test('ten years at once over several subscriptions is refused up front with the bound in the error; a step within it runs', async () => {
  const key = await app.createKey({ account: `clock-${randomUUID().slice(0, 8)}` })
  const plan = await ok('POST', '/v1/products', { name: 'Pro', type: 'subscription', defaultPrice: { amount: '10', currency: 'BRL', model: 'subscription', interval: 'month' } }, key)
  for (let index = 0; index < 5; index += 1) {
    const customer = await ok('POST', '/v1/customers', { name: `Subscriber ${index}` }, key)
    await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' }, key)
  }
  const refused = await app.request('POST', '/v1/test_helpers/clock/advance', { key, body: { seconds: 315_000_000 }, idempotencyKey: randomUUID() })
  expect(refused.status).toBe(400)
  expect(refused.body.error).toMatchObject({ code: 'validation_error', param: 'seconds', details: { maxPeriodsPerAdvance } })
  expect(refused.body.error.message).toContain(`at most ${maxPeriodsPerAdvance}`)
  // Nothing moved: no invoice beyond each subscription's first.
  expect((await ok('GET', '/v1/invoices?limit=100', undefined, key)).items).toHaveLength(5)
  const step = refused.body.error.details.maxSecondsPerCall as number
  expect(step).toBeGreaterThan(0)
  await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 40 * 86_400 }, key)
})

test('a transaction past its timeout is a logged internal_error, not unavailable', async () => {
  const prisma = app.application.services.database.prisma
  const failure = await prisma
    .$transaction(
      async (transaction) => {
        await new Promise((resolve) => setTimeout(resolve, 300))
        await transaction.$queryRaw`SELECT 1`
      },
      { timeout: 50 },
    )
    .then(() => undefined, (error: unknown) => error)
  expect(failure).toBeDefined()
  const written = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  const previous = process.env.LOG_LEVEL
  process.env.LOG_LEVEL = 'info'
  try {
    expect(classifyAndLog(failure).code).toBe('internal_error')
    expect(written.mock.calls.map((call) => String(call[0])).join('')).toContain('"level":"error"')
  } finally {
    process.env.LOG_LEVEL = previous
    written.mockRestore()
  }
})
