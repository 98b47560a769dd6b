import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 8 §3: the pages a payer opens without a key, and the links that lead there.

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

/** A denied access check's top-up link (a customer with no credits and a priced meter). */
async function topUpLink(): Promise<{ path: string; customerId: string }> {
  const customer = await ok('POST', '/v1/customers', { name: 'Buyer' })
  const meter = await ok('POST', '/v1/usage/meters', { name: `Calls ${randomUUID().slice(0, 6)}`, aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
  await ok('POST', '/v1/products', {
    name: 'Metered API',
    type: 'metered',
    defaultPrice: { amount: '0.5', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id },
  })
  const denied = await ok('POST', '/v1/access/check', { customerId: customer.id, meterId: meter.id, quantity: 1 })
  expect(denied.paymentUrl).toMatch(/\/checkout\/top-up\//)
  return { path: new URL(denied.paymentUrl).pathname, customerId: customer.id }
}

async function sessionsOf(customerId: string): Promise<number> {
  return app.application.services.database.prisma.checkoutSession.count({ where: { customerId } })
}

test('one top-up link opened 40 times at once creates one checkout session, and every opening lands on it', async () => {
  const { path, customerId } = await topUpLink()
  const openings = await Promise.all(Array.from({ length: 40 }, () => fetch(`${app.baseUrl}${path}`, { redirect: 'manual' })))
  expect(openings.map((response) => response.status)).toEqual(openings.map(() => 303))
  expect(new Set(openings.map((response) => response.headers.get('location'))).size).toBe(1)
  expect(await sessionsOf(customerId)).toBe(1)
  // Paid, then opened again: still that session, nothing new.
  const location = openings[0]!.headers.get('location')!
  expect((await fetch(`${app.baseUrl}${location}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303)
  const again = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual' })
  expect(again.headers.get('location')).toBe(location)
  expect(await sessionsOf(customerId)).toBe(1)
})

test('a top-up link expires: opened after a day, it creates nothing', async () => {
  const { path, customerId } = await topUpLink()
  await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 25 * 3600 })
  const opened = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual' })
  expect(opened.status).toBe(410)
  expect(await opened.text()).toContain('expired')
  expect(await sessionsOf(customerId)).toBe(0)
})

test('malformed percent-encoding in a top-up link is the 404 page', async () => {
  for (const path of ['/checkout/top-up/%E0%A4%A', '/checkout/top-up/%', '/checkout/top-up/%ED%BF%BF.x']) {
    const response = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual' })
    expect(response.status, path).toBe(404)
    expect(response.headers.get('content-type')).toContain('text/html')
  }
})

test('success and cancel URLs are validated by their normalised form; paying always ends in a redirect', async () => {
  const customer = await ok('POST', '/v1/customers', { name: 'Payer' })
  for (const [field, url] of [
    ['successUrl', 'https://example.com/ok\r\nSet-Cookie: a=b'],
    ['successUrl', 'https://exa\tmple.com/'],
    ['cancelUrl', ' https://example.com/'],
    ['successUrl', 'javascript:alert(1)'],
  ] as const) {
    const refused = await app.request('POST', '/v1/checkout/sessions', { idempotencyKey: randomUUID(), body: { mode: 'credits', customerId: customer.id, amount: '1', currency: 'USDC', [field]: url } })
    expect(refused.status, url).toBe(400)
    expect(refused.body.error).toMatchObject({ code: 'validation_error', param: field })
    const viaGraphQL = await app.graphql('mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { id } }', {
      input: { mode: 'credits', customerId: customer.id, amount: '1', currency: 'USDC', [field]: url },
    })
    expect(viaGraphQL.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', param: field })
  }

  // Non-ASCII is stored percent-encoded, so that it can be a Location header.
  const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '1', currency: 'USDC', successUrl: 'https://example.com/obrigado/日本' })
  expect(session.successUrl).toBe('https://example.com/obrigado/%E6%97%A5%E6%9C%AC')
  const paid = await fetch(`${app.baseUrl}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' })
  expect(paid.status).toBe(303)
  expect(paid.headers.get('location')).toBe('https://example.com/obrigado/%E6%97%A5%E6%9C%AC')

  // A session stored before this validation with a line break in it: payment commits and redirects to the page.
  const legacy = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '1', currency: 'USDC' })
  const client = new pg.Client({ connectionString: app.databaseUrl })
  await client.connect()
  await client.query(`UPDATE "CheckoutSession" SET "successUrl" = $1 WHERE id = $2`, ['https://example.com/ok\r\nX: y', legacy.id])
  await client.end()
  const legacyPaid = await fetch(`${app.baseUrl}/checkout/${legacy.id}/pay`, { method: 'POST', redirect: 'manual' })
  expect(legacyPaid.status).toBe(303)
  expect(legacyPaid.headers.get('location')).toBe(`/checkout/${legacy.id}`)
  expect((await ok('GET', `/v1/checkout/sessions/${legacy.id}`)).status).toBe('paid')
})
