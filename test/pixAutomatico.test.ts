import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 10 item 6 (CONTRACT §9, §9.1): Pix Automático for pix_auto subscriptions, against the PSP
// simulator as a separate process and real PostgreSQL. Customers' taxId (CPF/CNPJ check digits).

let app: TestApplication
let psp: PixSimulatorProcess
let liveKey: string
let pool: pg.Pool

beforeAll(async () => {
  ;[app, psp] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator()])
  liveKey = await app.createKey({ account: `pix-auto-${randomUUID().slice(0, 8)}`, mode: 'live' })
  pool = new pg.Pool({ connectionString: app.databaseUrl, max: 2 })
})
afterAll(async () => {
  await pool?.end()
  await app?.close()
  await psp?.stop()
})

const pixKey = 'automatico@example.com.br'

async function call(method: string, path: string, body?: unknown, key = liveKey) {
  return app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
}

async function ok(method: string, path: string, body?: unknown, key = liveKey) {
  const response = await call(method, path, body, key)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

describe('customers\' taxId', () => {
  test('a CPF or CNPJ with valid check digits is stored bare and returned by REST and GraphQL', async () => {
    const created = await ok('POST', '/v1/customers', { name: 'Ana', taxId: '123.456.789-09' })
    expect(created.taxId).toBe('12345678909')
    expect((await ok('GET', `/v1/customers/${created.id}`)).taxId).toBe('12345678909')
    const listed = (await ok('GET', '/v1/customers?limit=100')).items.find((item: { id: string }) => item.id === created.id)
    expect(listed.taxId).toBe('12345678909')
    // The alphanumeric CNPJ (2026) and the numeric one, written with punctuation.
    expect((await ok('PATCH', `/v1/customers/${created.id}`, { taxId: '12.ABC.345/01DE-35' })).taxId).toBe('12ABC34501DE35')
    expect((await ok('PATCH', `/v1/customers/${created.id}`, { taxId: '11.222.333/0001-81' })).taxId).toBe('11222333000181')
    const graph = await app.graphql('query($id: ID!) { customer(id: $id) { taxId } }', { id: created.id }, liveKey)
    expect(graph.body.data.customer.taxId).toBe('11222333000181')
    const viaGraph = await app.graphql('mutation { createCustomer(input: {name: "Bia", taxId: "11144477735"}) { taxId } }', {}, liveKey)
    expect(viaGraph.body.data.createCustomer.taxId).toBe('11144477735')
    expect((await ok('PATCH', `/v1/customers/${created.id}`, { taxId: null })).taxId).toBeNull()
    const openApi = (await app.request('GET', '/v1/openapi.json')).body
    expect(JSON.stringify(openApi.paths['/v1/customers'])).toContain('taxId')
  })

  test('wrong check digits, lengths and characters are 400 validation_error on taxId', async () => {
    const { id } = await ok('POST', '/v1/customers', { name: 'Caio' })
    for (const taxId of ['12345678900', '11111111111', '1234567890', '11222333000180', '12ABC34501DE34', '12abc34501de3x', 'CPF 123', '']) {
      const created = await call('POST', '/v1/customers', { taxId })
      expect(created.status, taxId).toBe(400)
      expect(created.body.error).toMatchObject({ code: 'validation_error', param: 'taxId' })
      const patched = await call('PATCH', `/v1/customers/${id}`, { taxId })
      expect(patched.status, taxId).toBe(400)
      expect(patched.body.error).toMatchObject({ code: 'validation_error', param: 'taxId' })
    }
    const graph = await app.graphql('mutation { createCustomer(input: {taxId: "12345678900"}) { id } }', {}, liveKey)
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'validation_error', param: 'taxId' })
  })

  test('a pix_auto subscription on an account with a PSP needs the customer\'s taxId (422 tax_id_required)', async () => {
    const configured = await app.graphql(
      'mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { configuredAt } }',
      { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey } },
      liveKey,
    )
    expect(configured.body.errors).toBeUndefined()
    const customer = await ok('POST', '/v1/customers', { name: 'Sem documento' })
    const plan = await ok('POST', '/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const refused = await call('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_auto' })
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ code: 'tax_id_required', param: 'customerId' })
    expect(Number((await pool.query('SELECT count(*) FROM "Subscription" WHERE "customerId" = $1', [customer.id])).rows[0].count)).toBe(0)
    // pix_manual needs no document.
    await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' })
  })
})
