import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

async function send(method: string, path: string, body: unknown, key: string) {
  return app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
}
async function ok(method: string, path: string, body: unknown, key: string) {
  const response = await send(method, path, body, key)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}
interface EventBody {
  id: string
  type: string
  createdAt: string
  data: Record<string, unknown>
}
async function eventsOf(key: string, type?: string): Promise<EventBody[]> {
  return (await ok('GET', `/v1/events?limit=500${type ? `&type=${type}` : ''}`, undefined, key)).items
}
const account = () => app.createKey({ account: `events-${randomUUID().slice(0, 8)}` })

describe('events are recorded by the changes they describe, with data as GET returns it', () => {
  test('customers, checkouts, credits, subscriptions, invoices, transactions, entitlements, expiry and depletion', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', { name: 'Ana' }, key)
    const updated = await ok('PATCH', `/v1/customers/${customer.id}`, { email: 'ana@example.com' }, key)

    // A credits purchase through the sandbox helper: completed, succeeded, granted.
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' }, key)
    await ok('POST', '/v1/products', { name: 'PAYG', type: 'metered', defaultPrice: { amount: '0.5', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } }, key)
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '1.00', currency: 'USDC' }, key)
    const paidSession = await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`, undefined, key)

    // Usage that crosses zero once: credits.depleted once, not for the usage before or after.
    for (const quantity of [1, 1, 1]) {
      await ok('POST', '/v1/usage/events', { customerId: customer.id, meterId: meter.id, quantity, idempotencyKey: randomUUID() }, key)
    }
    const balance = await ok('GET', `/v1/customers/${customer.id}/credits?currency=USDC`, undefined, key)

    // A subscription: created, its invoice created; a failed then a successful payment; pause; cancel.
    const plan = await ok('POST', '/v1/products', { name: 'Pro', type: 'subscription', defaultPrice: { amount: '10', currency: 'BRL', model: 'subscription', interval: 'month' } }, key)
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id }, key)
    const [invoice] = (await ok('GET', '/v1/invoices', undefined, key)).items
    await ok('POST', `/v1/test_helpers/invoices/${invoice.id}/fail`, undefined, key)
    const paidInvoice = await ok('POST', `/v1/test_helpers/invoices/${invoice.id}/pay`, undefined, key)
    await ok('POST', `/v1/subscriptions/${subscription.id}/pause`, undefined, key)
    await ok('POST', `/v1/subscriptions/${subscription.id}/cancel`, undefined, key)
    const canceled = await ok('GET', `/v1/subscriptions/${subscription.id}`, undefined, key)

    // A session left open past its 24 hours: the billing clock writes its expiry down.
    const forgotten = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '5', currency: 'USDC' }, key)
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 25 * 3600 }, key)

    const events = await eventsOf(key)
    const byType = (type: string) => events.filter((event) => event.type === type)
    expect(byType('customer.created').map((event) => event.data)).toEqual([customer])
    expect(byType('customer.updated').map((event) => event.data)).toEqual([updated])
    expect(byType('checkout.session.completed').map((event) => event.data)).toEqual([paidSession])
    expect(byType('credits.granted').map((event) => event.data)).toEqual([{ customerId: customer.id, currency: 'USDC', balance: '1.000000', updatedAt: expect.any(String), amount: '1.000000' }])
    expect(byType('credits.depleted').map((event) => event.data)).toEqual([{ ...balance, balance: '0.000000', amount: '0.500000' }].map(({ updatedAt: _updatedAt, ...rest }) => ({ ...rest, updatedAt: expect.any(String) })))
    expect(balance.balance).toBe('-0.500000')
    expect(byType('subscription.created').map((event) => event.data)).toEqual([subscription])
    expect(byType('invoice.created').map((event) => (event.data as { id: string }).id)).toEqual([invoice.id])
    expect(byType('invoice.payment_failed').map((event) => (event.data as { status: string }).status)).toEqual(['open'])
    expect(byType('invoice.paid').map((event) => event.data)).toEqual([paidInvoice])
    expect(byType('transaction.failed')).toHaveLength(1)
    expect(byType('transaction.succeeded').map((event) => (event.data as { status: string }).status)).toEqual(['succeeded', 'succeeded'])
    expect(byType('subscription.updated').map((event) => (event.data as { status: string }).status).reverse()).toEqual(['active', 'paused'])
    expect(byType('subscription.canceled').map((event) => event.data)).toEqual([canceled])
    expect(byType('entitlement.updated').map((event) => (event.data as { status: string }).status).reverse()).toEqual(['active', 'revoked', 'revoked'])
    expect(byType('checkout.session.expired').map((event) => (event.data as { id: string; status: string }))).toEqual([expect.objectContaining({ id: forgotten.id, status: 'expired' })])
    const transaction = byType('transaction.failed')[0]!.data as { id: string }
    expect(await ok('GET', `/v1/transactions/${transaction.id}`, undefined, key)).toEqual(transaction)

    // Each event by id, and the same through GraphQL.
    const first = events[0]!
    expect(await ok('GET', `/v1/events/${first.id}`, undefined, key)).toEqual(first)
    expect(first.id).toMatch(/^evt_[0-9A-Za-z]{26}$/)
    const graph = await app.graphql('query($type: String) { events(type: $type, first: 5) { edges { node { id type data createdAt } } } }', { type: 'customer.created' }, key)
    expect(graph.body.data.events.edges.map((edge: { node: unknown }) => edge.node)).toEqual(byType('customer.created'))
    const node = await app.graphql('query($id: ID!) { node(id: $id) { ... on Event { type } } }', { id: first.id }, key)
    expect(node.body.data.node).toEqual({ type: first.type })
  })

  test('transaction.refunded when a refund is confirmed, with the transaction as GET returns it', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', { name: 'Refunded' }, key)
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '2.00', currency: 'USDC' }, key)
    await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`, undefined, key)
    const [paid] = (await ok('GET', '/v1/transactions', undefined, key)).items
    await ok('POST', `/v1/transactions/${paid.id}/refund`, { amount: '0.50' }, key)
    const partly = await ok('GET', `/v1/transactions/${paid.id}`, undefined, key)
    await ok('POST', `/v1/transactions/${paid.id}/refund`, {}, key)
    const whole = await ok('GET', `/v1/transactions/${paid.id}`, undefined, key)
    expect(whole.status).toBe('refunded')
    expect((await eventsOf(key, 'transaction.refunded')).map((event) => event.data)).toEqual([whole, partly])
  })

  test('lists page newest first, filter by type, refuse bad parameters, and see only their account', async () => {
    const key = await account()
    for (let index = 0; index < 3; index += 1) await ok('POST', '/v1/customers', { name: `C${index}` }, key)
    const page = await ok('GET', '/v1/events?limit=2&type=customer.created', undefined, key)
    expect(page.items).toHaveLength(2)
    expect(page.hasMore).toBe(true)
    const next = await ok('GET', `/v1/events?limit=2&type=customer.created&before=${encodeURIComponent(page.nextCursor)}`, undefined, key)
    expect(next.items).toHaveLength(1)
    expect(next.hasMore).toBe(false)
    expect([...page.items, ...next.items].map((event: EventBody) => event.data.name)).toEqual(['C2', 'C1', 'C0'])
    expect(await eventsOf(key, 'invoice.paid')).toEqual([])

    for (const query of ['limit=0', 'limit=501', 'limit=x', 'type=customer.nope']) {
      const response = await send('GET', `/v1/events?${query}`, undefined, key)
      expect(response.status, query).toBe(400)
      expect(response.body.error.code).toBe('validation_error')
    }
    const other = await account()
    expect(await eventsOf(other)).toEqual([])
    const missing = await send('GET', `/v1/events/${page.items[0].id}`, undefined, other)
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('event_not_found')
    const readless = await app.createKey({ account: `events-${randomUUID().slice(0, 8)}`, scopes: ['write'] })
    expect((await send('GET', '/v1/events', undefined, readless)).status).toBe(403)
  })
})
