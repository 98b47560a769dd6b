import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Filters the other connection tests do not reach (subscriptions by product, usage events by meter and
// customer, entitlements by product), and ids typed `ID` in mutation and query inputs, so that a
// dashboard passes the ids it read as `ID` variables, and REST still takes them as strings.

let app: TestApplication
let key: string
beforeAll(async () => {
  app = await startTestApplication()
  key = await app.createKey({ account: `filters-${randomUUID().slice(0, 8)}` })
})
afterAll(async () => {
  await app.close()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

async function data(query: string, variables: Record<string, unknown> = {}) {
  const response = await app.graphql(query, variables, key)
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined()
  return response.body.data
}

const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((edge) => edge.node.id).sort()

describe('filters and id inputs', () => {
  test('subscriptions by productId, usage events by meterId and customerId, entitlements by productId', async () => {
    const plan = (name: string) => ok('POST', '/v1/products', { name, type: 'subscription', defaultPrice: { amount: '5', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const [basic, pro] = [await plan('Basic'), await plan('Pro')]
    const meter = (name: string) => ok('POST', '/v1/usage/meters', { name, aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    const [calls, tokens] = [await meter('Calls'), await meter('Tokens')]
    const [ana, bia, caio] = [await ok('POST', '/v1/customers', { name: 'Ana' }), await ok('POST', '/v1/customers', { name: 'Bia' }), await ok('POST', '/v1/customers', { name: 'Caio' })]
    const subscribe = async (customerId: string, productId: string) => {
      const subscription = await ok('POST', '/v1/subscriptions', { customerId, productId })
      const invoice = (await ok('GET', '/v1/invoices?limit=1')).items[0]
      await ok('POST', `/v1/test_helpers/invoices/${invoice.id}/pay`)
      return subscription.id as string
    }
    const onBasic = [await subscribe(ana.id, basic.id), await subscribe(bia.id, basic.id)]
    const onPro = [await subscribe(caio.id, pro.id)]
    const use = async (customerId: string, meterId: string) => (await ok('POST', '/v1/usage/events', { customerId, meterId, quantity: 1, idempotencyKey: randomUUID() })).id as string
    const events = { anaCalls: await use(ana.id, calls.id), anaTokens: await use(ana.id, tokens.id), biaCalls: await use(bia.id, calls.id), caioTokens: await use(caio.id, tokens.id) }

    const result = await data(
      `query($basic: ID, $pro: ID, $calls: ID, $tokens: ID, $ana: ID!, $caio: ID!) {
        basic: subscriptions(productId: $basic) { totalCount edges { node { id productId } } }
        pro: subscriptions(productId: $pro) { totalCount edges { node { id } } }
        calls: usageEvents(meterId: $calls) { totalCount edges { node { id meterId } } }
        anaEvents: usageEvents(customerId: $ana) { totalCount edges { node { id } } }
        anaTokens: usageEvents(customerId: $ana, meterId: $tokens) { totalCount edges { node { id } } }
        anaBasic: entitlements(customerId: $ana, productId: $basic) { totalCount edges { node { productId subscriptionId } } }
        anaPro: entitlements(customerId: $ana, productId: $pro) { totalCount }
        caioPro: entitlements(customerId: $caio, productId: $pro) { totalCount edges { node { subscriptionId } } }
      }`,
      { basic: basic.id, pro: pro.id, calls: calls.id, tokens: tokens.id, ana: ana.id, caio: caio.id },
    )
    expect(ids(result.basic)).toEqual([...onBasic].sort())
    expect(result.basic.totalCount).toBe(2)
    expect(ids(result.pro)).toEqual(onPro)
    expect(ids(result.calls)).toEqual([events.anaCalls, events.biaCalls].sort())
    expect(result.calls.totalCount).toBe(2)
    expect(ids(result.anaEvents)).toEqual([events.anaCalls, events.anaTokens].sort())
    expect(ids(result.anaTokens)).toEqual([events.anaTokens])
    expect(result.anaTokens.totalCount).toBe(1)
    expect(result.anaBasic).toEqual({ totalCount: 1, edges: [{ node: { productId: basic.id, subscriptionId: onBasic[0] } }] })
    expect(result.anaPro.totalCount).toBe(0)
    expect(result.caioPro.edges.map((edge: { node: { subscriptionId: string } }) => edge.node.subscriptionId)).toEqual(onPro)
  })

  test('ids in inputs are ID: a dashboard passes the ids it read as ID variables; REST still takes strings', async () => {
    const schema = await data(`{
      __schema { types { name inputFields { name type { kind name ofType { name } } } } }
    }`)
    const idFields = ['AccessCheckInput', 'CreateCheckoutSessionInput', 'CreateSubscriptionInput', 'EntitlementCheckInput', 'PriceInput', 'RecordUsageEventInput'].flatMap((typeName) => {
      const type = schema.__schema.types.find((candidate: { name: string }) => candidate.name === typeName)
      return type.inputFields
        .filter((field: { name: string }) => /^(customer|product|meter)Id$/.test(field.name))
        .map((field: { name: string; type: { name: string | null; ofType: { name: string } | null } }) => `${typeName}.${field.name}: ${field.type.name ?? field.type.ofType?.name}`)
    })
    expect(idFields).toEqual([
      'AccessCheckInput.customerId: ID', 'AccessCheckInput.meterId: ID',
      'CreateCheckoutSessionInput.customerId: ID', 'CreateCheckoutSessionInput.productId: ID',
      'CreateSubscriptionInput.customerId: ID', 'CreateSubscriptionInput.productId: ID',
      'EntitlementCheckInput.customerId: ID', 'EntitlementCheckInput.productId: ID',
      'PriceInput.meterId: ID',
      'RecordUsageEventInput.customerId: ID', 'RecordUsageEventInput.meterId: ID',
    ])

    const customer = await ok('POST', '/v1/customers', { name: 'Variables' })
    const product = await ok('POST', '/v1/products', { name: 'By variable', type: 'subscription', defaultPrice: { amount: '2', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const meter = await ok('POST', '/v1/usage/meters', { name: 'By variable', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    const created = await data(
      `mutation($customerId: ID!, $productId: ID!, $meterId: ID!, $key: String!) {
        createSubscription(input: { customerId: $customerId, productId: $productId }) { customerId productId }
        recordUsageEvent(input: { customerId: $customerId, meterId: $meterId, quantity: 2, idempotencyKey: $key }) { customerId meterId }
      }`,
      { customerId: customer.id, productId: product.id, meterId: meter.id, key: randomUUID() },
    )
    expect(created).toEqual({ createSubscription: { customerId: customer.id, productId: product.id }, recordUsageEvent: { customerId: customer.id, meterId: meter.id } })
    const checked = await data(
      `query($customerId: ID!, $productId: ID!, $meterId: ID!) {
        entitlementCheck(input: { customerId: $customerId, productId: $productId }) { allowed }
        accessCheck(input: { customerId: $customerId, meterId: $meterId, quantity: 1 }) { allowed }
      }`,
      { customerId: customer.id, productId: product.id, meterId: meter.id },
    )
    expect(typeof checked.entitlementCheck.allowed).toBe('boolean')
    expect(typeof checked.accessCheck.allowed).toBe('boolean')

    // REST reads the same ids from JSON strings; a number where an id belongs is a 400 naming the field
    // (GraphQL's ID would have read its digits as the id "12").
    await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: product.id })
    const numeric = await app.request('POST', '/v1/subscriptions', { key, body: { customerId: 12, productId: product.id }, idempotencyKey: randomUUID() })
    expect(numeric.status).toBe(400)
    expect(numeric.body.error).toMatchObject({ code: 'validation_error', param: 'customerId' })
    const nested = await app.request('POST', '/v1/products', { key, body: { name: 'Numbers', type: 'metered', defaultPrice: { amount: '1', currency: 'BRL', model: 'credits', meterId: 7 } }, idempotencyKey: randomUUID() })
    expect(nested.status).toBe(400)
    expect(nested.body.error).toMatchObject({ code: 'validation_error', param: 'defaultPrice.meterId' })
  })
})
