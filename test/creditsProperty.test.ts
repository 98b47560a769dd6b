import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readLedger } from './support/ledger'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Random sequences of purchases, usage, retries and key reuse against a model that any reader can
// check by hand: balance = purchases − uses × unit price, a retried key changes nothing, a reused key
// with another payload is refused. After every step the API's balance, the model's balance and the
// ledger's sum in PostgreSQL must agree. Amounts are kept in micro-USDC integers on the model side.

let app: TestApplication
let meterId: string
const unitPriceMicros = 125_000n // 0.125 USDC per unit
beforeAll(async () => {
  app = await startTestApplication()
  const post = async (path: string, body: unknown) => (await app.request('POST', path, { body, idempotencyKey: randomUUID() })).body.data
  meterId = (await post('/v1/usage/meters', { name: 'Tokens', aggregation: 'sum', unit: 'token', resetPeriod: 'never' })).id
  await post('/v1/products', { name: 'Tokens', type: 'metered', defaultPrice: { amount: '0.125', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId } })
})
afterAll(async () => {
  await app.close()
})

type Step =
  | { kind: 'purchase'; micros: number }
  | { kind: 'use'; key: number; quantity: number; tag: number }

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('purchase' as const), micros: fc.integer({ min: 1, max: 5_000_000 }) }),
  fc.record({ kind: fc.constant('use' as const), key: fc.integer({ min: 0, max: 5 }), quantity: fc.integer({ min: 1, max: 8 }), tag: fc.integer({ min: 0, max: 1 }) }),
)

const formatMicros = (micros: bigint) => {
  const sign = micros < 0n ? '-' : ''
  const absolute = micros < 0n ? -micros : micros
  return `${sign}${absolute / 1_000_000n}.${String(absolute % 1_000_000n).padStart(6, '0')}`
}

test('the balance always equals the model and the ledger', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 12 }), async (steps) => {
      const customerId = (await app.request('POST', '/v1/customers', { body: {}, idempotencyKey: randomUUID() })).body.data.id as string
      const keyPrefix = randomUUID()
      const sent = new Map<number, { quantity: number; tag: number; eventId: string }>()
      let model = 0n
      for (const step of steps) {
        if (step.kind === 'purchase') {
          const amount = formatMicros(BigInt(step.micros))
          const session = await app.request('POST', '/v1/checkout/sessions', { body: { mode: 'credits', customerId, amount, currency: 'USDC' }, idempotencyKey: randomUUID() })
          expect(session.status).toBe(201)
          expect((await app.request('POST', `/v1/test_helpers/checkout/sessions/${session.body.data.id}/pay`, { body: {} })).status).toBe(200)
          model += BigInt(step.micros)
        } else {
          const body = { customerId, meterId, quantity: step.quantity, idempotencyKey: `${keyPrefix}-${step.key}`, metadata: { tag: step.tag } }
          const response = await app.request('POST', '/v1/usage/events', { body })
          const earlier = sent.get(step.key)
          if (!earlier) {
            expect(response.status).toBe(200)
            sent.set(step.key, { quantity: step.quantity, tag: step.tag, eventId: response.body.data.id })
            model -= BigInt(step.quantity) * unitPriceMicros
          } else if (earlier.quantity === step.quantity && earlier.tag === step.tag) {
            expect(response.status).toBe(200)
            expect(response.body.data.id).toBe(earlier.eventId)
          } else {
            expect(response.status).toBe(422)
            expect(response.body.error.code).toBe('idempotency_key_reused')
          }
        }
        const balance = (await app.request('GET', `/v1/customers/${customerId}/credits`)).body.data.balance
        expect(balance).toBe(formatMicros(model))
        const ledger = await readLedger(app.databaseUrl, customerId)
        expect(ledger.ledgerSum).toBe(balance)
        expect(ledger.balance).toBe(balance)
      }
    }),
    // Reproducible in CI; PROPERTY_SEED explores other sequences.
    { numRuns: 25, ...(process.env.PROPERTY_SEED === 'random' ? {} : { seed: Number(process.env.PROPERTY_SEED ?? 20261122) }) },
  )
}, 120_000)
