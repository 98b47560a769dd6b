import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// The graph serves dashboards: from customers to their balances, ledger, usage and transactions, each
// a connection, with a number of queries that does not grow with the number of customers.

let app: TestApplication
let counting = false
let queries = 0
beforeAll(async () => {
  app = await startTestApplication({ onQuery: () => (counting ? (queries += 1) : undefined) })
})
afterAll(async () => {
  await app.close()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300)
  return response.body.data
}

const dashboard = `query($first: Int) {
  customers(first: $first) {
    edges { node {
      id name
      creditBalances { currency balance }
      creditLedger(first: 2) { edges { node { amount kind } } pageInfo { hasNextPage endCursor } }
      usageEvents(first: 2) { edges { node { quantity cost } } pageInfo { hasNextPage } }
      transactions(first: 2) { edges { node { amount status } } }
    } }
  }
}`

async function countQueries(first: number) {
  queries = 0
  counting = true
  const result = await app.graphql(dashboard, { first })
  counting = false
  expect(result.body.errors).toBeUndefined()
  return { queries, customers: result.body.data.customers.edges }
}

describe('walking the graph', () => {
  test('customers with their nested connections: the same handful of queries for 3 or 12 customers', async () => {
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Graph calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    await ok('POST', '/v1/products', { name: 'Graph', type: 'metered', defaultPrice: { amount: '0.1', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
    for (let index = 0; index < 12; index += 1) {
      const customer = await ok('POST', '/v1/customers', { name: `graph-${index}` })
      const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '1', currency: 'USDC' })
      await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
      for (let use = 0; use < 3; use += 1) await ok('POST', '/v1/usage/events', { customerId: customer.id, meterId: meter.id, quantity: 1, idempotencyKey: randomUUID() })
    }
    const few = await countQueries(3)
    const many = await countQueries(12)
    expect(many.customers).toHaveLength(12)
    expect(many.queries).toBe(few.queries)
    // customers, balances, and one per nested list: a query count that could not hide a loop per customer.
    expect(few.queries).toBeGreaterThanOrEqual(5)
    expect(many.queries).toBeLessThanOrEqual(6)

    const first = many.customers[0].node
    expect(first.creditBalances).toEqual([{ currency: 'USDC', balance: '0.700000' }])
    expect(first.usageEvents.edges).toHaveLength(2)
    expect(first.usageEvents.pageInfo.hasNextPage).toBe(true)
    expect(first.creditLedger.edges.map((edge: { node: { kind: string } }) => edge.node.kind)).toEqual(['debit', 'debit'])
    expect(first.transactions.edges).toEqual([{ node: { amount: '1.000000', status: 'succeeded' } }])

    // The nested cursor pages on: the ledger's remaining entries are one more debit and the grant.
    const next = await app.graphql(
      'query($id: ID!, $after: String) { node(id: $id) { ... on Customer { creditLedger(first: 5, after: $after) { edges { node { kind } } pageInfo { hasNextPage } } } } }',
      { id: first.id, after: first.creditLedger.pageInfo.endCursor },
    )
    expect(next.body.data.node.creditLedger.edges.map((edge: { node: { kind: string } }) => edge.node.kind)).toEqual(['debit', 'grant'])
    expect(next.body.data.node.creditLedger.pageInfo.hasNextPage).toBe(false)
  })
})
