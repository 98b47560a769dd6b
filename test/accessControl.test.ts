import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allScopes } from '../src/accounts/scopes'
import { compileRoutes } from '../rest/compileRoutes'
import { restRoutes } from '../rest/restRoutes'
import { schema } from '../src/graphql/schema'
import { fillPath, seedCatalog, type SeededCatalog } from './support/seedCatalog'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
let ids: SeededCatalog
beforeAll(async () => {
  app = await startTestApplication()
  ids = await seedCatalog(app)
})
afterAll(async () => {
  await app.close()
})

// A refund that passes the scope check would really refund the seeded purchase: probes ask for an invalid amount.
const probeBodies: Record<string, unknown> = { 'POST /v1/transactions/{transactionId}/refund': { amount: '-1' } }

const send = (route: (typeof restRoutes)[number], key: string, body: unknown = probeBodies[`${route.method} ${route.path}`] ?? {}) =>
  app.request(route.method, fillPath(route.path, ids), { key, ...(route.method === 'GET' ? {} : { body, idempotencyKey: randomUUID() }) })

describe('scopes: no scope implies another', () => {
  // Each route accepts the scopes its GraphQL root field declares.
  for (const { route, scopes } of compileRoutes(schema, restRoutes)) {
    for (const scope of allScopes.filter((candidate) => !scopes.includes(candidate))) {
      test(`${route.method} ${route.path} with only ${scope} → 403`, async () => {
        const response = await send(route, await app.createKey({ scopes: [scope] }))
        expect(response.status).toBe(403)
        expect(response.body.error).toMatchObject({ code: 'insufficient_scope', details: { required: [...scopes] } })
      })
    }
    for (const scope of scopes) {
      test(`${route.method} ${route.path} with only ${scope} passes the scope check`, async () => {
        const response = await send(route, await app.createKey({ scopes: [scope] }))
        expect([401, 403]).not.toContain(response.status)
      })
    }
  }

  test('GraphQL fields apply the same scopes', async () => {
    const writeOnly = await app.createKey({ scopes: ['write'] })
    const readOnly = await app.createKey({ scopes: ['read'] })
    const read = await app.graphql('{ customers { edges { node { id } } } }', {}, writeOnly)
    expect(read.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', details: { required: ['read'] } })
    const node = await app.graphql('query($id: ID!) { node(id: $id) { id } }', { id: ids.customerId }, writeOnly)
    expect(node.body.errors[0].extensions.code).toBe('insufficient_scope')
    const write = await app.graphql('mutation { createCustomer(input: {}) { id } }', {}, readOnly)
    expect(write.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', details: { required: ['write'] } })
    const usage = await app.graphql('{ accessCheck(input: { customerId: "x", meterId: "y", quantity: 1 }) { allowed } }', {}, readOnly)
    expect(usage.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', details: { required: ['write', 'usage:write'] } })
  })
})

describe('accounts never see each other', () => {
  // Bodies that pass validation, so that only the ownership of the ids can refuse them.
  const validBodies: Record<string, unknown> = {
    'PATCH /v1/customers/{customerId}': { name: 'hijack' },
    'PATCH /v1/products/{productId}': { name: 'hijack' },
    'POST /v1/products/{productId}/prices': { amount: '1', currency: 'USDC', model: 'credits', meterId: 'mtr_unknown' },
    'PATCH /v1/products/{productId}/prices/{priceId}': { amount: '2' },
  }

  const notFoundCode: Record<string, string> = {
    customerId: 'customer_not_found',
    productId: 'product_not_found',
    priceId: 'price_not_found',
    sessionId: 'checkout_session_not_found',
    transactionId: 'transaction_not_found',
    subscriptionId: 'subscription_not_found',
    invoiceId: 'invoice_not_found',
    eventId: 'event_not_found',
    endpointId: 'webhook_endpoint_not_found',
  }

  for (const route of restRoutes.filter((candidate) => candidate.path.includes('{'))) {
    test(`${route.method} ${route.path} with another account's key on this account's ids → 404`, async () => {
      const intruder = await app.createKey({ account: 'intruder' })
      const firstParameter = /\{(\w+)\}/.exec(route.path)![1]!
      const response = await send(route, intruder, validBodies[`${route.method} ${route.path}`] ?? {})
      expect(response.status).toBe(404)
      expect(response.body.error.code).toBe(notFoundCode[firstParameter])
    })
  }

  test('lists, checks and events see only their own account', async () => {
    const intruder = await app.createKey({ account: 'intruder-lists' })
    for (const path of ['/v1/customers', '/v1/products', '/v1/usage/meters', '/v1/usage/events', '/v1/transactions', '/v1/subscriptions', '/v1/invoices', '/v1/events']) {
      expect((await app.request('GET', path, { key: intruder })).body.data.items, path).toEqual([])
    }
    const check = await app.request('POST', '/v1/access/check', { key: intruder, body: { customerId: ids.customerId, meterId: ids.meterId, quantity: 1 } })
    expect(check.status).toBe(404)
    const event = await app.request('POST', '/v1/usage/events', { key: intruder, body: { customerId: ids.customerId, meterId: ids.meterId, quantity: 1, idempotencyKey: randomUUID() } })
    expect(event.status).toBe(404)
    const graph = await app.graphql('query($id: ID!) { node(id: $id) { id } }', { id: ids.customerId }, intruder)
    expect(graph.body.data.node).toBeNull()
    const balance = await app.request('GET', `/v1/customers/${ids.customerId}/credits`)
    expect(balance.body.data.balance).toBe('1.000000')
  })

  test('sandbox helpers do not exist for live keys', async () => {
    const live = await app.createKey({ account: 'live-account', mode: 'live' })
    const response = await app.request('POST', `/v1/test_helpers/checkout/sessions/${ids.sessionId}/pay`, { key: live, body: {} })
    expect(response.status).toBe(404)
    expect(response.body.error.code).toBe('not_found')
  })
})
