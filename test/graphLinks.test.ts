import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startWebhookWorker } from '../src/webhooks/startWebhookWorker'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { startWebhookReceiver } from './support/startWebhookReceiver'

// Every `…Id` has its object beside it, and a page of objects with all their links costs the same
// number of queries for 2 objects as for 8: each kind of link is one batched query.

let app: TestApplication
let counting = false
let queries = 0
beforeAll(async () => {
  app = await startTestApplication({ onQuery: () => (counting ? (queries += 1) : undefined) })
})
afterAll(async () => {
  await app.close()
})

async function ok(method: string, path: string, body?: unknown, key = app.key) {
  const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

const walk = `query Walk($first: Int) {
  subscriptions(first: $first) { edges { node {
    id customerId productId priceId
    customer { id name } product { id name } price { id amount product { id } }
    entitlement { id product { id } subscription { id } customer { id } }
    invoices { id subscriptionId customer { id } subscription { id }
      transactions { id invoiceId invoice { id } customer { id } checkoutSession { id } } }
  } } }
  usageEvents(first: $first) { edges { node { id customerId meterId customer { id } meter { id name } } } }
  creditLedger: transactions(first: $first) { edges { node { id customer { id } checkoutSession { id customer { id } product { id } price { id } subscription { id } } } } }
  customers(first: $first) { edges { node { id creditBalances { customerId customer { id } } } } }
  invoices(first: $first) { edges { node { lines { priceId meterId price { id product { id } } meter { id } } } } }
}`

async function countQueries(first: number) {
  queries = 0
  counting = true
  const result = await app.graphql(walk, { first })
  counting = false
  expect(result.body.errors).toBeUndefined()
  return { queries, data: result.body.data }
}

describe('graph links', () => {
  test('subscriptions, invoices, transactions, usage events and checkout sessions with their objects, batched', async () => {
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Link calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    await ok('POST', '/v1/products', { name: 'Links credits', type: 'metered', defaultPrice: { amount: '0.1', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
    const plan = await ok('POST', '/v1/products', { name: 'Links plan', type: 'subscription', defaultPrice: { amount: '10', currency: 'USDC', model: 'subscription', interval: 'month' } })
    for (let index = 0; index < 8; index += 1) {
      const customer = await ok('POST', '/v1/customers', { name: `linked-${index}` })
      const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '1', currency: 'USDC' })
      await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
      await ok('POST', '/v1/usage/events', { customerId: customer.id, meterId: meter.id, quantity: 1, idempotencyKey: randomUUID() })
      await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id })
      const invoices = await ok('GET', '/v1/invoices?limit=1')
      await ok('POST', `/v1/test_helpers/invoices/${invoices.items[0].id}/pay`)
    }

    const few = await countQueries(2)
    const many = await countQueries(8)
    expect(many.queries).toBe(few.queries)
    // Five root lists, invoice lines and ten kinds of links: far fewer queries than the 8 × 20 links resolved.
    expect(many.queries).toBeLessThanOrEqual(20)

    const subscriptions = many.data.subscriptions.edges.map((edge: { node: Record<string, any> }) => edge.node) // eslint-disable-line @typescript-eslint/no-explicit-any -- response JSON
    expect(subscriptions).toHaveLength(8)
    for (const subscription of subscriptions) {
      expect(subscription.customer.id).toBe(subscription.customerId)
      expect(subscription.product).toEqual({ id: plan.id, name: 'Links plan' })
      expect(subscription.price).toEqual({ id: subscription.priceId, amount: '10.000000', product: { id: plan.id } })
      expect(subscription.entitlement).toMatchObject({ product: { id: plan.id }, subscription: { id: subscription.id }, customer: { id: subscription.customerId } })
      expect(subscription.invoices).toHaveLength(1)
      const [invoice] = subscription.invoices
      expect(invoice).toMatchObject({ subscriptionId: subscription.id, customer: { id: subscription.customerId }, subscription: { id: subscription.id } })
      expect(invoice.transactions).toHaveLength(1)
      expect(invoice.transactions[0]).toMatchObject({ invoiceId: invoice.id, invoice: { id: invoice.id }, customer: { id: subscription.customerId }, checkoutSession: null })
    }
    for (const { node } of many.data.usageEvents.edges) expect(node).toMatchObject({ customer: { id: node.customerId }, meter: { id: meter.id, name: 'Link calls' } })
    const purchases = many.data.creditLedger.edges.filter((edge: { node: { checkoutSession: unknown } }) => edge.node.checkoutSession)
    for (const { node } of purchases) expect(node.checkoutSession).toMatchObject({ customer: { id: node.customer.id }, product: null, subscription: null })

    for (const { node } of many.data.customers.edges) for (const balance of node.creditBalances) expect(balance.customer).toEqual({ id: balance.customerId })
    const lines = many.data.invoices.edges.flatMap((edge: { node: { lines: unknown[] } }) => edge.node.lines)
    expect(lines).toHaveLength(8)
    for (const line of lines) expect(line).toMatchObject({ price: { id: line.priceId, product: { id: plan.id } }, meterId: null, meter: null })
    const summary = await app.graphql('query($customerId: ID!, $meterId: ID!) { usageSummary(customerId: $customerId, meterId: $meterId) { units customer { id } meter { id name } } }', {
      customerId: subscriptions[0].customerId,
      meterId: meter.id,
    })
    expect(summary.body.data.usageSummary).toEqual({ units: 1, customer: { id: subscriptions[0].customerId }, meter: { id: meter.id, name: 'Link calls' } })

    const ledger = await app.graphql('query($id: ID!) { creditLedger(customerId: $id, first: 5) { edges { node { kind usageEvent { id meter { id } } checkoutSession { id } customer { id } } } } }', {
      id: subscriptions[0].customerId,
    })
    const kinds = ledger.body.data.creditLedger.edges.map((edge: { node: { kind: string; usageEvent: unknown; checkoutSession: unknown } }) => [edge.node.kind, Boolean(edge.node.usageEvent), Boolean(edge.node.checkoutSession)])
    expect(kinds).toEqual([['debit', true, false], ['grant', false, true]])
  })

  test('webhook attempts and redeliveries with their events and endpoints, batched', async () => {
    const key = await app.createKey({ account: `links-hooks-${randomUUID().slice(0, 8)}` })
    const receiver = await startWebhookReceiver()
    const worker = startWebhookWorker(
      { pool: app.application.services.database.pool, databaseUrl: app.databaseUrl },
      { retryScheduleMs: [300], disableAfterMs: 60_000, timeoutMs: 1000, pollIntervalMs: 50, concurrency: 4, perEndpointConcurrency: 2 },
    )
    try {
      const endpoint = await ok('POST', '/v1/webhook_endpoints', { url: `${receiver.url}/hooks`, events: ['customer.created'] }, key)
      for (let index = 0; index < 6; index += 1) await ok('POST', '/v1/customers', { name: `hooked-${index}` }, key)
      const attemptsQuery = `query($id: ID!, $first: Int) { webhookEndpointDeliveries(endpointId: $id, first: $first) { edges { node {
        eventId endpointId event { id type } endpoint { id url }
      } } } }`
      const readAttempts = async (first: number) => {
        queries = 0
        counting = true
        const response = await app.graphql(attemptsQuery, { id: endpoint.id, first }, key)
        counting = false
        expect(response.body.errors).toBeUndefined()
        return { queries, attempts: response.body.data.webhookEndpointDeliveries.edges.map((edge: { node: unknown }) => edge.node) }
      }
      const deadline = Date.now() + 30_000
      while ((await readAttempts(100)).attempts.length < 6) {
        if (Date.now() > deadline) throw new Error('timed out waiting for six attempts')
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const few = await readAttempts(2)
      const many = await readAttempts(6)
      expect(many.queries).toBe(few.queries)
      for (const attempt of many.attempts) {
        expect(attempt).toMatchObject({ endpointId: endpoint.id, event: { id: attempt.eventId, type: 'customer.created' }, endpoint: { id: endpoint.id, url: `${receiver.url}/hooks` } })
      }

      const redelivered = await app.graphql('mutation($id: ID!) { redeliverEvent(id: $id) { eventId endpointIds event { id type } endpoints { id url } } }', { id: many.attempts[0].eventId }, key)
      expect(redelivered.body.errors).toBeUndefined()
      expect(redelivered.body.data.redeliverEvent).toEqual({
        eventId: many.attempts[0].eventId,
        endpointIds: [endpoint.id],
        event: { id: many.attempts[0].eventId, type: 'customer.created' },
        endpoints: [{ id: endpoint.id, url: `${receiver.url}/hooks` }],
      })
    } finally {
      await worker.stop()
      await receiver.close()
    }
  })

  test('a link reads, so it needs scope read even under a write-only mutation', async () => {
    const writer = await app.createKey({ scopes: ['write'] })
    const customer = await ok('POST', '/v1/customers', { name: 'write-only' })
    const plan = await ok('POST', '/v1/products', { name: 'Scoped plan', type: 'subscription', defaultPrice: { amount: '1', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const created = await app.graphql(
      'mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) { id customer { email } } }',
      { input: { customerId: customer.id, productId: plan.id } },
      writer,
    )
    expect(created.body.errors[0].extensions.code).toBe('insufficient_scope')
  })
})
