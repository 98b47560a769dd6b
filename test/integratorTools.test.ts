import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { buildClientSchema, buildSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// What integrators' tools need from the service (issue 9 §2): introspection that GraphiQL and codegen
// can run, no phantom subscription root, Relay cursors, BR Codes that can be paid, transactions that
// name their invoice, and quantities that are never silently rounded.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app?.close()
})

async function send(method: string, path: string, body?: unknown, key = app.key) {
  return app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
}
async function ok(method: string, path: string, body?: unknown, key = app.key) {
  const response = await send(method, path, body, key)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}
async function account() {
  return app.createKey({ account: `integrators-${randomUUID().slice(0, 8)}` })
}

describe('introspection', () => {
  test('the standard introspection queries of graphql-js and GraphiQL run and describe the schema', async () => {
    const queries = [
      getIntrospectionQuery(),
      // GraphiQL asks for everything graphql-js can, with deep type references.
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }),
      getIntrospectionQuery({ typeDepth: 14 }),
    ]
    for (const query of queries) {
      const response = await app.graphql(query)
      expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined()
      const client = buildClientSchema(response.body.data as IntrospectionQuery)
      expect(client.getType('Customer')).toBeDefined()
      expect(client.getQueryType()?.name).toBe('Query')
    }
  })

  test('introspection cannot fan out or nest without bound', async () => {
    const fanOut = await app.graphql('{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }')
    expect(fanOut.body.errors[0]).toMatchObject({ message: expect.stringMatching(/introspection/), extensions: { code: 'validation_error' } })
    const chain = `{ __type(name: "Customer") { fields { type { ${'ofType { '.repeat(25)}name${' }'.repeat(25)} } } } }`
    const deep = await app.graphql(chain)
    expect(deep.body.errors[0]).toMatchObject({ message: expect.stringContaining('levels deep'), extensions: { code: 'validation_error' } })
  })
})

describe('no GraphQL subscriptions', () => {
  test('the billing Subscription type is an object, not the subscription root, served and in schema.graphql', async () => {
    const response = await app.graphql('{ __schema { subscriptionType { name } queryType { name } mutationType { name } } __type(name: "Subscription") { kind fields { name } } }')
    expect(response.body.errors).toBeUndefined()
    expect(response.body.data.__schema).toEqual({ subscriptionType: null, queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } })
    expect(response.body.data.__type.kind).toBe('OBJECT')
    expect(response.body.data.__type.fields.map((field: { name: string }) => field.name)).toContain('currentPeriodEnd')
    const printed = buildSchema(await readFile(new URL('../schema.graphql', import.meta.url), 'utf8'))
    expect(printed.getSubscriptionType()).toBeUndefined()
    expect(printed.getType('Subscription')).toBeDefined()
  })
})

describe('connections', () => {
  test('the last page has endCursor = the last edge cursor, and REST still says nextCursor null', async () => {
    const key = await account()
    const made = [await ok('POST', '/v1/customers', { name: 'one' }, key), await ok('POST', '/v1/customers', { name: 'two' }, key)]
    const page = await app.graphql('{ customers(first: 5) { edges { cursor node { id } } pageInfo { hasNextPage startCursor endCursor } } }', {}, key)
    const { edges, pageInfo } = page.body.data.customers
    expect(edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([made[1].id, made[0].id])
    expect(pageInfo).toEqual({ hasNextPage: false, startCursor: edges[0].cursor, endCursor: edges[1].cursor })
    const after = await app.graphql('query($after: String) { customers(first: 5, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }', { after: pageInfo.endCursor }, key)
    expect(after.body.data.customers).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } })
    expect(await ok('GET', '/v1/customers?limit=5', undefined, key)).toMatchObject({ hasMore: false, nextCursor: null })
    const first = await ok('GET', '/v1/customers?limit=1', undefined, key)
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) })
  })
})

describe('BRL checkout', () => {
  test('amounts a BR Code cannot carry are refused with the field that holds them', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Grande' })
    const tooMuch = await send('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '10000000000.00', currency: 'BRL' })
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.body.error).toMatchObject({ code: 'validation_error', param: 'amount' })
    const largest = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '9999999999.99', currency: 'BRL' })
    expect(largest.amount).toBe('9999999999.99')

    // A price charged whole must fit one PIX payment too, or its checkouts and invoices could never be paid.
    const island = await send('POST', '/v1/products', { name: 'Ilha', type: 'one_time', defaultPrice: { amount: '10000000000', currency: 'BRL', model: 'one_time' } })
    expect(island.status).toBe(400)
    expect(island.body.error).toMatchObject({ code: 'validation_error', param: 'defaultPrice.amount' })
    const plan = await ok('POST', '/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '9999999999.99', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const yearly = await send('POST', `/v1/products/${plan.id}/prices`, { amount: '10000000000.00', currency: 'BRL', model: 'subscription', interval: 'year' })
    expect(yearly.status).toBe(400)
    expect(yearly.body.error).toMatchObject({ code: 'validation_error', param: 'amount' })
    const raised = await send('PATCH', `/v1/products/${plan.id}/prices/${plan.defaultPriceId}`, { amount: '10000000000' })
    expect(raised.status).toBe(400)
    expect(raised.body.error).toMatchObject({ code: 'validation_error', param: 'amount' })
    const dollars = await ok('POST', '/v1/products', { name: 'Plan', type: 'subscription', defaultPrice: { amount: '10000000000', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const toReais = await send('PATCH', `/v1/products/${dollars.id}/prices/${dollars.defaultPriceId}`, { currency: 'BRL' })
    expect(toReais.status).toBe(400)
    expect(toReais.body.error).toMatchObject({ code: 'validation_error', param: 'currency' })
    // A unit price is not charged whole: large unit prices stay possible.
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Consultas', aggregation: 'sum', unit: 'query', resetPeriod: 'never' })
    await ok('POST', '/v1/products', { name: 'Ouro', type: 'metered', defaultPrice: { amount: '20000000000', currency: 'BRL', model: 'metered', usageBillingMode: 'subscription', meterId: meter.id } })
    const graph = await app.graphql('mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { id } }', {
      input: { mode: 'credits', customerId: customer.id, amount: '12345678901.00', currency: 'BRL' },
    })
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'validation_error', param: 'amount' })
  })
})

describe('transactions', () => {
  test('a payment of an invoice names the invoice, in REST and GraphQL', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', { name: 'Payer' }, key)
    const plan = await ok('POST', '/v1/products', { name: 'Pro', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } }, key)
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' }, key)
    const [invoice] = (await ok('GET', '/v1/invoices', undefined, key)).items.filter((item: { subscriptionId: string }) => item.subscriptionId === subscription.id)
    await ok('POST', `/v1/test_helpers/invoices/${invoice.id}/pay`, {}, key)

    const [listed] = (await ok('GET', '/v1/transactions', undefined, key)).items
    expect(listed).toMatchObject({ invoiceId: invoice.id, checkoutId: null, status: 'succeeded', amount: '49.90', customerId: customer.id })
    expect(await ok('GET', `/v1/transactions/${listed.id}`, undefined, key)).toMatchObject({ invoiceId: invoice.id })
    const graph = await app.graphql('query($id: ID!) { transaction(id: $id) { invoiceId checkoutId } transactions(first: 5) { edges { node { id invoiceId } } } }', { id: listed.id }, key)
    expect(graph.body.errors).toBeUndefined()
    expect(graph.body.data.transaction).toEqual({ invoiceId: invoice.id, checkoutId: null })
    expect(graph.body.data.transactions.edges).toEqual([{ node: { id: listed.id, invoiceId: invoice.id } }])
  })
})

describe('quantities', () => {
  test('more significant digits than a double keeps are refused, at both REST doors that take a quantity', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Precise' })
    const meter = await ok('POST', '/v1/usage/meters', { name: `Tokens ${randomUUID().slice(0, 6)}`, aggregation: 'sum', unit: 'token', resetPeriod: 'never' })
    const raw = (path: string, quantity: string, extra = '') =>
      app.request('POST', path, {
        rawBody: `{"customerId":"${customer.id}","meterId":"${meter.id}"${extra},"quantity":${quantity}}`,
        headers: { 'Content-Type': 'application/json' },
        idempotencyKey: randomUUID(),
      })
    const key = () => `,"idempotencyKey":"${randomUUID()}"`
    for (const quantity of ['1.0000000000000001', '12345678901234567', '9007199254740993', '1.23456789012345678e2']) {
      const refused = await raw('/v1/usage/events', quantity, key())
      expect(refused.status, quantity).toBe(400)
      expect(refused.body.error).toMatchObject({ code: 'validation_error', param: 'quantity' })
      expect((await raw('/v1/access/check', quantity)).body.error).toMatchObject({ code: 'validation_error', param: 'quantity' })
    }
    for (const [quantity, stored] of [['123456789012.345', 123456789012.345], ['1000000000000', 1e12], ['0.000000000001', 1e-12], ['2.50000000000000000000', 2.5]] as const) {
      const accepted = await raw('/v1/usage/events', quantity, key())
      expect(accepted.status, `${quantity}: ${JSON.stringify(accepted.body)}`).toBe(200)
      expect(accepted.body.data.quantity).toBe(stored)
    }
    // A string that looks like a quantity, or a nested key of that name, is not the quantity.
    const nested = await raw('/v1/usage/events', '3', `${key()},"metadata":{"quantity":1.0000000000000001,"note":"\\"quantity\\":1.0000000000000001"}`)
    expect(nested.status, JSON.stringify(nested.body)).toBe(200)
  })

  test('and at the GraphQL door: in variables (any number the parser would round) and in literals', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Precise in GraphQL' })
    const meter = await ok('POST', '/v1/usage/meters', { name: `Runs ${randomUUID().slice(0, 6)}`, aggregation: 'sum', unit: 'run', resetPeriod: 'never' })
    const mutation = 'mutation($input: RecordUsageEventInput!) { recordUsageEvent(input: $input) { quantity } }'
    const post = (body: string) => app.request('POST', '/graphql', { rawBody: body, headers: { 'Content-Type': 'application/json' } })
    const variables = (quantity: string) =>
      `{"query":${JSON.stringify(mutation)},"variables":{"input":{"customerId":"${customer.id}","meterId":"${meter.id}","idempotencyKey":"${randomUUID()}","quantity":${quantity}}}}`
    for (const quantity of ['1.0000000000000001', '12345678901234567', '1.23456789012345678e2']) {
      const refused = await post(variables(quantity))
      expect(refused.status, quantity).toBe(400)
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'validation_error', param: 'variables' })
    }
    const accepted = await post(variables('2.50000000000000000000'))
    expect(accepted.body.errors, JSON.stringify(accepted.body)).toBeUndefined()
    expect(accepted.body.data.recordUsageEvent.quantity).toBe(2.5)
    // A string holding such digits is text, not a number, in a JSON body and in a form-encoded one.
    const texted = await post(variables(`3,"metadata":{"note":"1.0000000000000001"}`))
    expect(texted.body.errors, JSON.stringify(texted.body)).toBeUndefined()
    const form = await app.request('POST', '/graphql', {
      rawBody: new URLSearchParams({ query: '{ customers(first: 1) { totalCount } }', variables: '{"long":"12345678901234567890"}' }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(form.body.errors?.[0]?.message ?? '', JSON.stringify(form.body)).not.toContain('significant digits')

    const literal = (quantity: string) =>
      `mutation { recordUsageEvent(input: {customerId: "${customer.id}", meterId: "${meter.id}", idempotencyKey: "${randomUUID()}", quantity: ${quantity}}) { quantity } }`
    const refusedLiteral = await app.graphql(literal('1.0000000000000001'))
    expect(refusedLiteral.body.errors[0].extensions).toMatchObject({ code: 'validation_error' })
    expect(refusedLiteral.body.errors[0].message).toContain('15 significant digits')
    const acceptedLiteral = await app.graphql(literal('4.25'))
    expect(acceptedLiteral.body.data.recordUsageEvent.quantity).toBe(4.25)
  })
})
