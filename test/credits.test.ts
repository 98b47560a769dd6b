import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readLedger } from './support/ledger'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

/** A customer, a meter and a metered product that charges `unitPrice` USDC of credits per unit. */
async function pricedMeter(unitPrice: string, aggregation: 'sum' | 'count' = 'sum') {
  const customer = await ok('POST', '/v1/customers', { name: 'Buyer' })
  const meter = await ok('POST', '/v1/usage/meters', { name: `Calls ${randomUUID().slice(0, 6)}`, aggregation, unit: 'request', resetPeriod: 'never' })
  const product = await ok('POST', '/v1/products', {
    name: 'Metered API',
    type: 'metered',
    defaultPrice: { amount: unitPrice, currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id },
  })
  return { customerId: customer.id as string, meterId: meter.id as string, productId: product.id as string }
}

async function buyCredits(customerId: string, amount: string) {
  const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount, currency: 'USDC' })
  await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
  return session
}

const balanceOf = async (customerId: string) => (await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance as string

describe('prepaid credits end to end', () => {
  test('buy 1.00 → use 2 × 0.5 → balance 0 → denied with a payment link → pay on the hosted page → allowed', async () => {
    const { customerId, meterId } = await pricedMeter('0.5')
    await buyCredits(customerId, '1.00')
    expect(await balanceOf(customerId)).toBe('1.000000')

    expect(await ok('POST', '/v1/access/check', { customerId, meterId, quantity: 2 })).toEqual({ allowed: true, reason: 'credits_available', paymentUrl: null })
    const event = await ok('POST', '/v1/usage/events', { customerId, meterId, quantity: 2, idempotencyKey: randomUUID() })
    expect(event).toMatchObject({ customerId, meterId, quantity: 2, status: 'recorded' })
    expect(await balanceOf(customerId)).toBe('0.000000')

    const denied = await ok('POST', '/v1/access/check', { customerId, meterId, quantity: 1 })
    expect(denied).toMatchObject({ allowed: false, reason: 'insufficient_credits', paymentUrl: expect.stringMatching(/^http:\/\/billing\.test\/checkout\/top-up\//) })

    // The link opens a credits checkout for what is missing, on the hosted page.
    const link = new URL(denied.paymentUrl)
    const opened = await fetch(`${app.baseUrl}${link.pathname}`, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    const pagePath = opened.headers.get('location')!
    expect(pagePath).toMatch(/^\/checkout\/cs_/)
    const page = await fetch(`${app.baseUrl}${pagePath}`).then((response) => response.text())
    expect(page).toContain('0.500000 USDC')
    expect(page).toContain('data-testid="usdc-address"')
    const paid = await fetch(`${app.baseUrl}${pagePath}/pay`, { method: 'POST', redirect: 'manual' })
    expect(paid.status).toBe(303)
    expect(await fetch(`${app.baseUrl}${pagePath}`).then((response) => response.text())).toContain('data-status="paid"')

    expect(await balanceOf(customerId)).toBe('0.500000')
    expect(await ok('POST', '/v1/access/check', { customerId, meterId, quantity: 1 })).toMatchObject({ allowed: true, reason: 'credits_available' })
    const ledger = await readLedger(app.databaseUrl, customerId)
    expect(ledger).toEqual({ ledgerSum: '0.500000', balance: '0.500000', entries: 3 })
  })

  test('a meter with no price for it is no_entitlement; a count meter charges one unit per event', async () => {
    const customer = await ok('POST', '/v1/customers', {})
    const unpriced = await ok('POST', '/v1/usage/meters', { name: 'Unpriced', aggregation: 'sum', unit: 'token', resetPeriod: 'month' })
    expect(await ok('POST', '/v1/access/check', { customerId: customer.id, meterId: unpriced.id, quantity: 5 })).toEqual({ allowed: false, reason: 'no_entitlement', paymentUrl: null })
    expect(await ok('POST', '/v1/usage/events', { customerId: customer.id, meterId: unpriced.id, quantity: 5, idempotencyKey: randomUUID() })).toMatchObject({ status: 'recorded' })

    const { customerId, meterId } = await pricedMeter('0.25', 'count')
    await buyCredits(customerId, '1')
    await ok('POST', '/v1/usage/events', { customerId, meterId, quantity: 1000, idempotencyKey: randomUUID() })
    expect(await balanceOf(customerId)).toBe('0.750000')
  })

  test('usage beyond the balance is still recorded; the next purchase pays the debt first', async () => {
    const { customerId, meterId } = await pricedMeter('1')
    await buyCredits(customerId, '1')
    await ok('POST', '/v1/usage/events', { customerId, meterId, quantity: 3, idempotencyKey: randomUUID() })
    expect(await balanceOf(customerId)).toBe('-2.000000')
    await buyCredits(customerId, '5')
    expect(await balanceOf(customerId)).toBe('3.000000')
  })

  test('a paid checkout settles exactly once, even when confirmed twice at once', async () => {
    const { customerId } = await pricedMeter('1')
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount: '2.50', currency: 'USDC' })
    const confirmations = await Promise.all(
      Array.from({ length: 5 }, () => app.request('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`, { body: {} })),
    )
    for (const confirmation of confirmations) expect(confirmation.body.data.status).toBe('paid')
    expect(await balanceOf(customerId)).toBe('2.500000')
    const transactions = await app.application.services.database.prisma.transaction.count({ where: { checkoutId: session.id } })
    expect(transactions).toBe(1)
    const canceled = await app.request('POST', `/v1/checkout/sessions/${session.id}/cancel`, { body: {} })
    expect(canceled.status).toBe(409)
    expect(canceled.body.error.code).toBe('invalid_state')
  })

  test('the ledger is append-only and balances move only through it', async () => {
    const { customerId } = await pricedMeter('1')
    await buyCredits(customerId, '1')
    const client = new pg.Client({ connectionString: app.databaseUrl })
    await client.connect()
    try {
      await expect(client.query('UPDATE "CreditLedgerEntry" SET amount = 1000 WHERE "customerId" = $1', [customerId])).rejects.toThrow(/append-only/)
      await expect(client.query('DELETE FROM "CreditLedgerEntry" WHERE "customerId" = $1', [customerId])).rejects.toThrow(/append-only/)
      await expect(client.query('UPDATE "CreditBalance" SET balance = 1000 WHERE "customerId" = $1', [customerId])).rejects.toThrow(/only through the credit ledger/)
    } finally {
      await client.end()
    }
    expect(await balanceOf(customerId)).toBe('1.000000')
  })
})

describe('nothing lost, nothing doubled', () => {
  test('200 concurrent usage events (100 keys, each sent twice at once) → exactly 100 events, exact balance', async () => {
    const { customerId, meterId } = await pricedMeter('0.01')
    await buyCredits(customerId, '5')
    const keys = Array.from({ length: 100 }, () => randomUUID())
    const responses = await Promise.all(
      [...keys, ...keys].map((idempotencyKey) => app.request('POST', '/v1/usage/events', { body: { customerId, meterId, quantity: 1, idempotencyKey } })),
    )
    for (const response of responses) expect(response.status, JSON.stringify(response.body)).toBe(200)
    const idsByKey = new Map<string, Set<string>>()
    responses.forEach((response, index) => {
      const key = [...keys, ...keys][index]!
      idsByKey.set(key, (idsByKey.get(key) ?? new Set()).add(response.body.data.id))
    })
    for (const ids of idsByKey.values()) expect(ids.size).toBe(1)
    expect(await app.application.services.database.prisma.usageEvent.count({ where: { customerId } })).toBe(100)
    expect(await balanceOf(customerId)).toBe('4.000000')
    const ledger = await readLedger(app.databaseUrl, customerId)
    expect(ledger).toEqual({ ledgerSum: '4.000000', balance: '4.000000', entries: 101 })
  })

  test('50 concurrent debits against a balance that covers 10: no update lost, ledger = balance', async () => {
    const { customerId, meterId } = await pricedMeter('10')
    await buyCredits(customerId, '100')
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => app.request('POST', '/v1/usage/events', { body: { customerId, meterId, quantity: 1, idempotencyKey: randomUUID() } })),
    )
    for (const response of responses) expect(response.status).toBe(200)
    // Usage is a fact (CONTRACT §6): all 50 are recorded and every one debited exactly once.
    expect(await balanceOf(customerId)).toBe('-400.000000')
    expect(await readLedger(app.databaseUrl, customerId)).toEqual({ ledgerSum: '-400.000000', balance: '-400.000000', entries: 51 })
  })

  test('50 concurrent check-and-debits against a balance that covers 10: exactly 10 pass, never below zero', async () => {
    const { customerId, meterId } = await pricedMeter('10')
    await buyCredits(customerId, '100')
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => app.request('POST', '/v1/access/consume', { body: { customerId, meterId, quantity: 1, idempotencyKey: randomUUID() } })),
    )
    const allowed = responses.filter((response) => response.body.data.allowed)
    const denied = responses.filter((response) => !response.body.data.allowed)
    expect(allowed).toHaveLength(10)
    for (const response of allowed) expect(response.body.data.event).toMatchObject({ status: 'recorded', quantity: 1 })
    for (const response of denied) expect(response.body.data).toMatchObject({ reason: 'insufficient_credits', event: null, paymentUrl: expect.any(String) })
    expect(await balanceOf(customerId)).toBe('0.000000')
    expect(await app.application.services.database.prisma.usageEvent.count({ where: { customerId } })).toBe(10)
    expect(await readLedger(app.databaseUrl, customerId)).toEqual({ ledgerSum: '0.000000', balance: '0.000000', entries: 11 })
  })

  test('a usage key reused with another payload is 422; a retry replays without debiting', async () => {
    const { customerId, meterId } = await pricedMeter('1')
    await buyCredits(customerId, '10')
    const idempotencyKey = randomUUID()
    const first = await ok('POST', '/v1/usage/events', { customerId, meterId, quantity: 2, idempotencyKey, metadata: { a: 1, b: 2 } })
    const retry = await ok('POST', '/v1/usage/events', { customerId, meterId, quantity: 2, idempotencyKey, metadata: { b: 2, a: 1 } })
    expect(retry).toEqual(first)
    const reused = await app.request('POST', '/v1/usage/events', { body: { customerId, meterId, quantity: 3, idempotencyKey } })
    expect(reused.status).toBe(422)
    expect(reused.body.error).toMatchObject({ code: 'idempotency_key_reused', param: 'idempotencyKey' })
    expect(await balanceOf(customerId)).toBe('8.000000')
  })
})

describe('validation', () => {
  test('bad usage input gets the documented 400 or 404, never a 500', async () => {
    const { customerId, meterId } = await pricedMeter('1')
    const cases: [unknown, number, string, string?][] = [
      [{ customerId, meterId, quantity: 0, idempotencyKey: 'k' }, 400, 'validation_error', 'quantity'],
      [{ customerId, meterId, quantity: -1, idempotencyKey: 'k' }, 400, 'validation_error', 'quantity'],
      [{ customerId, meterId, quantity: '1', idempotencyKey: 'k' }, 400, 'validation_error', 'quantity'],
      [{ customerId, meterId, quantity: 'NaN', idempotencyKey: 'k' }, 400, 'validation_error', 'quantity'],
      [{ customerId, meterId, quantity: null, idempotencyKey: 'k' }, 400, 'validation_error', 'quantity'],
      [{ customerId, meterId, quantity: 1e13, idempotencyKey: 'k' }, 400, 'validation_error', 'quantity'],
      [{ customerId, meterId, quantity: 1 }, 400, 'validation_error', 'idempotencyKey'],
      [{ customerId, meterId, quantity: 1, idempotencyKey: 'k', extra: true }, 400, 'validation_error', 'extra'],
      [{ customerId: 'cus_nobody', meterId, quantity: 1, idempotencyKey: randomUUID() }, 404, 'customer_not_found', 'customerId'],
      [{ customerId, meterId: 'mtr_nothing', quantity: 1, idempotencyKey: randomUUID() }, 404, 'meter_not_found', 'meterId'],
    ]
    for (const [body, status, code, param] of cases) {
      for (const path of ['/v1/usage/events', '/v1/access/check']) {
        if (path === '/v1/access/check' && (param === 'idempotencyKey' || (body as { idempotencyKey?: string }).idempotencyKey === undefined)) continue
        const sent = path === '/v1/access/check' ? withoutKey(body) : body
        const response = await app.request('POST', path, { body: sent })
        expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(status)
        expect(response.body.error).toMatchObject({ code, ...(param ? { param } : {}) })
      }
    }
    const infinite = await app.request('POST', '/v1/usage/events', { rawBody: `{"customerId":"${customerId}","meterId":"${meterId}","quantity":1e309,"idempotencyKey":"k"}`, headers: { 'Content-Type': 'application/json' } })
    expect(infinite.status).toBe(400)
    expect(infinite.body.error).toMatchObject({ code: 'validation_error', param: 'quantity' })
  })

  test('money: too many decimals, unknown currency, negative amounts', async () => {
    const customer = await ok('POST', '/v1/customers', {})
    const brl = await app.request('POST', '/v1/checkout/sessions', { body: { mode: 'credits', customerId: customer.id, amount: '1.234', currency: 'BRL' }, idempotencyKey: randomUUID() })
    expect(brl.status).toBe(400)
    expect(brl.body.error).toMatchObject({ code: 'validation_error', param: 'amount' })
    const euro = await app.request('POST', '/v1/checkout/sessions', { body: { mode: 'credits', customerId: customer.id, amount: '1', currency: 'EUR' }, idempotencyKey: randomUUID() })
    expect(euro.body.error).toMatchObject({ code: 'validation_error', param: 'currency' })
    const negative = await app.request('POST', '/v1/products', { body: { name: 'x', type: 'one_time', defaultPrice: { amount: '-1', currency: 'BRL', model: 'one_time' } }, idempotencyKey: randomUUID() })
    expect(negative.body.error).toMatchObject({ code: 'validation_error', param: 'defaultPrice.amount' })
    const float = await app.request('POST', '/v1/products', { body: { name: 'x', type: 'one_time', defaultPrice: { amount: 1.5, currency: 'BRL', model: 'one_time' } }, idempotencyKey: randomUUID() })
    expect(float.body.error).toMatchObject({ code: 'validation_error', param: 'defaultPrice.amount' })
    const exact = await ok('POST', '/v1/products', { name: 'Pack', type: 'credit_pack', defaultPrice: { amount: '29.9', currency: 'BRL', model: 'one_time' } })
    const price = await ok('GET', `/v1/products/${exact.id}`)
    expect(price.defaultPriceId).toMatch(/^price_/)
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'payment', customerId: customer.id, productId: exact.id })
    expect(session).toMatchObject({ amount: '29.90', currency: 'BRL', status: 'open', url: `http://billing.test/checkout/${session.id}` })
  })

  test('checkout: unknown customer or product is 404; mode rules are 400', async () => {
    const customer = await ok('POST', '/v1/customers', { externalId: `ext-${randomUUID()}` })
    const post = (body: unknown) => app.request('POST', '/v1/checkout/sessions', { body, idempotencyKey: randomUUID() })
    expect((await post({ mode: 'credits', customerId: 'cus_nobody', amount: '1', currency: 'USDC' })).body.error.code).toBe('customer_not_found')
    expect((await post({ mode: 'credits', externalCustomerId: 'nobody', amount: '1', currency: 'USDC' })).body.error.code).toBe('customer_not_found')
    expect((await post({ mode: 'payment', customerId: customer.id, productId: 'prod_nothing' })).body.error.code).toBe('product_not_found')
    expect((await post({ mode: 'credits', customerId: customer.id, currency: 'USDC' })).body.error).toMatchObject({ code: 'validation_error', param: 'amount' })
    expect((await post({ mode: 'credits', externalCustomerId: customer.externalId, amount: '1', currency: 'USDC' })).status).toBe(201)
  })
})

function withoutKey(body: unknown): unknown {
  const { idempotencyKey: _ignored, ...rest } = body as Record<string, unknown>
  return rest
}
