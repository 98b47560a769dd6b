import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allScopes } from '../src/accounts/scopes'
import { restRoutes } from '../rest/restRoutes'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
let customerId: string
beforeAll(async () => {
  app = await startTestApplication()
  customerId = (await app.request('POST', '/v1/customers', { body: { name: 'A' }, idempotencyKey: randomUUID() })).body.data.id
})
afterAll(async () => {
  await app.close()
})

const concretePath = (path: string) => path.replace(/\{\w+\}/g, customerId)

describe('scopes: no scope implies another', () => {
  for (const route of restRoutes) {
    for (const scope of allScopes.filter((candidate) => !route.scopes.includes(candidate))) {
      test(`${route.method} ${route.path} with only ${scope} → 403`, async () => {
        const key = await app.createKey({ scopes: [scope] })
        const response = await app.request(route.method, concretePath(route.path), {
          key,
          ...(route.method === 'GET' ? {} : { body: {}, idempotencyKey: randomUUID() }),
        })
        expect(response.status).toBe(403)
        expect(response.body.error).toMatchObject({ code: 'insufficient_scope', details: { required: [...route.scopes] } })
      })
    }
    test(`${route.method} ${route.path} with its own scope passes the scope check`, async () => {
      const key = await app.createKey({ scopes: [...route.scopes] })
      const response = await app.request(route.method, concretePath(route.path), {
        key,
        ...(route.method === 'GET' ? {} : { body: {}, idempotencyKey: randomUUID() }),
      })
      expect([200, 201]).toContain(response.status)
    })
  }

  test('GraphQL fields apply the same scopes', async () => {
    const writeOnly = await app.createKey({ scopes: ['write'] })
    const readOnly = await app.createKey({ scopes: ['read'] })
    const read = await app.graphql('{ customers { edges { node { id } } } }', {}, writeOnly)
    expect(read.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', details: { required: ['read'] } })
    const node = await app.graphql('query($id: ID!) { node(id: $id) { id } }', { id: customerId }, writeOnly)
    expect(node.body.errors[0].extensions.code).toBe('insufficient_scope')
    const write = await app.graphql('mutation { createCustomer(input: {}) { id } }', {}, readOnly)
    expect(write.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', details: { required: ['write'] } })
  })
})

describe('accounts never see each other', () => {
  test('every customer route with another account\'s key on this account\'s ids → 404', async () => {
    const intruder = await app.createKey({ account: 'intruder' })
    const routesWithIds = restRoutes.filter((route) => route.path.includes('{'))
    expect(routesWithIds.length).toBeGreaterThan(0)
    for (const route of routesWithIds) {
      const response = await app.request(route.method, concretePath(route.path), {
        key: intruder,
        ...(route.method === 'GET' ? {} : { body: { name: 'hijack' }, idempotencyKey: randomUUID() }),
      })
      expect(response.status, `${route.method} ${route.path}`).toBe(404)
      expect(response.body.error.code).toBe('customer_not_found')
    }
    const list = await app.request('GET', '/v1/customers', { key: intruder })
    expect(list.body.data.items).toEqual([])
    const graph = await app.graphql('query($id: ID!) { node(id: $id) { id } }', { id: customerId }, intruder)
    expect(graph.body.data.node).toBeNull()
    const unchanged = await app.request('GET', `/v1/customers/${customerId}`)
    expect(unchanged.body.data.name).toBe('A')
  })
})
