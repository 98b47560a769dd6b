import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runPixWork } from '../src/payments/pix/runPixWork'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// CONTRACT §9 / §9.1 against the PSP simulator as a separate process: provider settings, charges
// (cob) for BRL sessions, settlement exactly once by callback or reconciliation (confirmed with
// GET /cob), under/overpayment, PSP outages, token expiry, cancellation, refunds of a credits purchase.

let app: TestApplication
let psp: PixSimulatorProcess
let liveKey: string
let pool: pg.Pool

beforeAll(async () => {
  ;[app, psp] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator()])
  liveKey = await app.createKey({ account: `pix-live-${randomUUID().slice(0, 8)}`, mode: 'live' })
  pool = new pg.Pool({ connectionString: app.databaseUrl, max: 2 })
})
afterAll(async () => {
  await pool.end()
  await app.close()
  await psp.stop()
})

const configure = `mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { apiUrl clientId pixKey webhookUrl configuredAt } }`
const pixKey = 'recebedor@example.com.br'

async function call(method: string, path: string, body?: unknown, key = liveKey) {
  return app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
}

async function ok(method: string, path: string, body?: unknown, key = liveKey) {
  const response = await call(method, path, body, key)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition never held')
}

async function count(sql: string, parameters: unknown[] = []): Promise<number> {
  return Number((await pool.query(sql, parameters)).rows[0].count)
}

describe('provider settings', () => {
  test('a live account without a provider cannot take BRL', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Ana' })
    const refused = await call('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '49.90', currency: 'BRL' })
    expect(refused.status).toBe(422)
    expect(refused.body.error.code).toBe('rail_not_available')
  })

  test('wrong credentials are the PSP\'s refusal (502), nothing is stored', async () => {
    const response = await app.graphql(configure, { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'wrong', pixKey } }, liveKey)
    expect(response.body.errors[0].extensions.code).toBe('provider_error')
    const settings = await app.graphql('{ account { pixProvider { apiUrl } } }', {}, liveKey)
    expect(settings.body.data.account.pixProvider).toBeNull()
  })

  test('configuring checks the credentials, registers the webhook, stores the secret encrypted and never shows it', async () => {
    const response = await app.graphql(configure, { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey } }, liveKey)
    expect(response.body.errors).toBeUndefined()
    const settings = response.body.data.configurePixProvider
    expect(settings).toMatchObject({ apiUrl: psp.apiUrl, clientId: 'sim-client', pixKey })
    expect(settings.webhookUrl).toMatch(new RegExp(`^${app.baseUrl}/webhooks/pix/[A-Za-z0-9_-]{32}$`))
    expect(JSON.stringify(response.body)).not.toContain('sim-secret')
    const state = await psp.control('GET', '/state')
    expect(state.webhooks[pixKey]).toBe(settings.webhookUrl)
    const stored = (await pool.query('SELECT "clientSecretEncrypted" FROM "PixProvider"')).rows.map((row) => row.clientSecretEncrypted as string)
    expect(stored.length).toBeGreaterThan(0)
    for (const value of stored) expect(value).not.toContain('sim-secret')
    const read = await app.graphql('{ account { pixProvider { apiUrl pixKey webhookUrl } } }', {}, liveKey)
    expect(read.body.data.account.pixProvider.webhookUrl).toBe(settings.webhookUrl)
  })
})

async function brlSession(amount = '49.90') {
  const customer = await ok('POST', '/v1/customers', { name: 'Bia' })
  const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount, currency: 'BRL' })
  return { customerId: customer.id as string, session }
}

const sessionOf = async (id: string) => ok('GET', `/v1/checkout/sessions/${id}`)
const eventsOf = async () => (await ok('GET', '/v1/events?limit=500')).items as { type: string; data: Record<string, unknown> }[]

describe('charges and settlement', () => {
  test('a BRL session carries its dynamic charge (REST, GraphQL, OpenAPI) and a callback settles it exactly once', async () => {
    const { customerId, session } = await brlSession()
    expect(session.payment).toMatchObject({ rail: 'pix', amountReceived: '0.00' })
    expect(session.payment.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/)
    expect(session.payment.pixCopiaECola).toMatch(/^000201.*6304[0-9A-F]{4}$/)
    const cob = (await psp.control('GET', '/state')).cobs.find((candidate: { txid: string }) => candidate.txid === session.payment.txid)
    expect(cob).toMatchObject({ status: 'ATIVA', valor: { original: '49.90' }, chave: pixKey, pixCopiaECola: session.payment.pixCopiaECola })
    const graph = await app.graphql(`query($id: ID!) { checkoutSession(id: $id) { payment { __typename ... on PixPaymentInstructions { txid pixCopiaECola } } } }`, { id: session.id }, liveKey)
    expect(graph.body.data.checkoutSession.payment).toEqual({ __typename: 'PixPaymentInstructions', txid: session.payment.txid, pixCopiaECola: session.payment.pixCopiaECola })
    const openApi = (await app.request('GET', '/v1/openapi.json')).body
    expect(JSON.stringify(openApi.paths['/v1/checkout/sessions/{sessionId}'])).toContain('pixCopiaECola')

    await psp.control('POST', `/cob/${session.payment.txid}/pay`)
    const paid = await waitFor(() => sessionOf(session.id), (value) => value.status === 'paid')
    expect(paid.payment.amountReceived).toBe('49.90')
    // The PSP's callback again, and the same body replayed by anyone: nothing more is settled.
    const callback = (await psp.control('GET', '/state')).callbacks.find((entry: { body: { pix: { txid: string }[] } }) => entry.body.pix[0]?.txid === session.payment.txid)
    await Promise.all(Array.from({ length: 8 }, () => fetch(callback.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(callback.body) })))
    expect(await count('SELECT count(*) FROM "Transaction" WHERE "checkoutId" = $1', [session.id])).toBe(1)
    expect(await count('SELECT count(*) FROM "CreditLedgerEntry" WHERE "checkoutSessionId" = $1', [session.id])).toBe(1)
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=BRL`)).balance).toBe('49.90')
    // One of each event, whatever the callbacks: the session, its transaction and the credits, as GET returns them.
    const events = await eventsOf()
    const transaction = (await ok('GET', '/v1/transactions?limit=100')).items.find((candidate: { checkoutId: string }) => candidate.checkoutId === session.id)
    expect(events.filter((event) => event.type === 'checkout.session.completed' && event.data.id === session.id).map((event) => event.data)).toEqual([await sessionOf(session.id)])
    expect(events.filter((event) => event.type === 'transaction.succeeded' && event.data.checkoutId === session.id).map((event) => event.data)).toEqual([transaction])
    expect(events.filter((event) => event.type === 'credits.granted' && event.data.customerId === customerId).map((event) => [event.data.amount, event.data.balance])).toEqual([['49.90', '49.90']])
  })

  test('forged callbacks (unpaid charge, unknown txid, wrong token) settle nothing', async () => {
    const { session } = await brlSession('10.00')
    const webhookUrl = (await psp.control('GET', '/state')).webhooks[pixKey] as string
    const forged = { pix: [{ endToEndId: `E99999999${'2'.repeat(12)}${'A'.repeat(11)}`, txid: session.payment.txid, valor: '10.00', horario: new Date().toISOString() }] }
    const answer = await fetch(`${webhookUrl}/pix`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(forged) })
    expect(answer.status).toBe(200)
    const wrongToken = await fetch(`${app.baseUrl}/webhooks/pix/${'x'.repeat(32)}/pix`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(forged) })
    expect(wrongToken.status).toBe(404)
    const garbage = await fetch(`${webhookUrl}/pix`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"pix": "nope"' })
    expect(garbage.status).toBe(400)
    expect((await sessionOf(session.id)).status).toBe('open')
    expect(await count('SELECT count(*) FROM "PixPayment" WHERE txid = $1', [session.payment.txid])).toBe(0)
  })

  test('underpayment settles nothing and shows; the rest settles it; overpayment settles and is recorded', async () => {
    // A cob's amount is fixed (modalidadeAlteracao 0), so a conforming payer's bank pays it exactly,
    // once (see test/pixSimulatorStrictness.test.ts); these payments are a bank breaking that rule.
    const { session } = await brlSession('30.00')
    await psp.control('POST', `/cob/${session.payment.txid}/pay`, { amount: '10.00', nonconforming: true })
    const under = await waitFor(() => sessionOf(session.id), (value) => value.payment.amountReceived === '10.00')
    expect(under.status).toBe('open')
    await psp.control('POST', `/cob/${session.payment.txid}/pay`, { amount: '20.00', nonconforming: true })
    expect((await waitFor(() => sessionOf(session.id), (value) => value.status === 'paid')).payment.amountReceived).toBe('30.00')

    const { session: over } = await brlSession('5.00')
    await psp.control('POST', `/cob/${over.payment.txid}/pay`, { amount: '7.50', nonconforming: true })
    const paid = await waitFor(() => sessionOf(over.id), (value) => value.status === 'paid')
    expect(paid.payment.amountReceived).toBe('7.50')
    const transactions = await pool.query('SELECT amount::text FROM "Transaction" WHERE "checkoutId" = $1', [over.id])
    expect(transactions.rows).toEqual([{ amount: '5.000000' }])
  })

  test('a payment whose callback never came is settled by reconciliation, once', async () => {
    const { session } = await brlSession('12.34')
    await psp.control('POST', `/cob/${session.payment.txid}/pay`, { callback: false })
    expect((await sessionOf(session.id)).status).toBe('open')
    await runPixWork(app.application.services.database.prisma, { force: true })
    expect((await sessionOf(session.id)).status).toBe('paid')
    await runPixWork(app.application.services.database.prisma, { force: true })
    expect(await count('SELECT count(*) FROM "Transaction" WHERE "checkoutId" = $1', [session.id])).toBe(1)
  })

  test('canceling a session removes its charge at the PSP', async () => {
    const { session } = await brlSession('8.00')
    await ok('POST', `/v1/checkout/sessions/${session.id}/cancel`)
    const cob = (await psp.control('GET', '/state')).cobs.find((candidate: { txid: string }) => candidate.txid === session.payment.txid)
    expect(cob.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR')
  })
})

describe('the PSP misbehaving', () => {
  test('an expired token is renewed at once; the call succeeds', async () => {
    const before = (await psp.control('GET', '/state')).tokensIssued
    await psp.control('POST', '/tokens/expire')
    const { session } = await brlSession('3.00')
    expect(session.payment.txid).toMatch(/^bk/)
    expect((await psp.control('GET', '/state')).tokensIssued).toBe(before + 1)
  })

  test('PSP down during checkout creation: 503, nothing half-done; during settlement: the callback is retried and settles once it is back', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Caio' })
    const sessionsBefore = await count('SELECT count(*) FROM "CheckoutSession"')
    await psp.control('POST', '/outage', { mode: 'down' })
    try {
      const refused = await call('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '20.00', currency: 'BRL' })
      expect(refused.status).toBe(503)
      expect(refused.body.error.code).toBe('unavailable')
      expect(await count('SELECT count(*) FROM "CheckoutSession"')).toBe(sessionsBefore)
    } finally {
      await psp.control('POST', '/outage', { mode: 'none' })
    }
    const { session } = await brlSession('20.00')
    await psp.control('POST', '/outage', { mode: 'down' })
    await psp.control('POST', `/cob/${session.payment.txid}/pay`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await sessionOf(session.id)).status).toBe('open')
    await psp.control('POST', '/outage', { mode: 'none' })
    await waitFor(() => sessionOf(session.id), (value) => value.status === 'paid')
    expect(await count('SELECT count(*) FROM "Transaction" WHERE "checkoutId" = $1', [session.id])).toBe(1)
  })

  test('a PSP refusal is 502 provider_error with the PSP\'s own message', async () => {
    const { session } = await brlSession('4.00')
    await ok('POST', `/v1/checkout/sessions/${session.id}/cancel`)
    // A charge already removed cannot be removed again: the PSP says so, and we pass its words on.
    await pool.query('UPDATE "PixCharge" SET status = \'active\' WHERE txid = $1', [session.payment.txid])
    await pool.query('UPDATE "CheckoutSession" SET status = \'open\', "canceledAt" = null WHERE id = $1', [session.id])
    const refused = await call('POST', `/v1/checkout/sessions/${session.id}/cancel`)
    expect(refused.status).toBe(502)
    expect(refused.body.error.code).toBe('provider_error')
    expect(refused.body.error.message).toContain('REMOVIDA_PELO_USUARIO_RECEBEDOR')
    expect((await sessionOf(session.id)).status).toBe('open')
  })
})

describe('refunds', () => {
  test('a refunded credits purchase gives the money back through the PSP and takes the credits back', async () => {
    const { customerId, session } = await brlSession('25.00')
    await psp.control('POST', `/cob/${session.payment.txid}/pay`)
    await waitFor(() => sessionOf(session.id), (value) => value.status === 'paid')
    const transactionId = (await pool.query('SELECT id FROM "Transaction" WHERE "checkoutId" = $1', [session.id])).rows[0].id as string

    const missingKey = await app.request('POST', `/v1/transactions/${transactionId}/refund`, { key: liveKey, body: {} })
    expect(missingKey.status).toBe(400)
    const tooMuch = await call('POST', `/v1/transactions/${transactionId}/refund`, { amount: '25.01' })
    expect(tooMuch.status).toBe(400)

    const partial = await call('POST', `/v1/transactions/${transactionId}/refund`, { amount: '10.00' })
    expect(partial.status).toBe(202)
    expect(partial.body.data).toMatchObject({ status: 'succeeded', amountRefunded: '0.00' })
    await psp.control('POST', '/refunds/settle')
    await waitFor(() => ok('GET', `/v1/transactions/${transactionId}`), (value) => value.amountRefunded === '10.00')
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=BRL`)).balance).toBe('15.00')

    const rest = await call('POST', `/v1/transactions/${transactionId}/refund`, {})
    expect(rest.status).toBe(202)
    await psp.control('POST', '/refunds/settle', { callback: false })
    await runPixWork(app.application.services.database.prisma, { force: true })
    const refunded = await ok('GET', `/v1/transactions/${transactionId}`)
    expect(refunded).toMatchObject({ status: 'refunded', amountRefunded: '25.00' })
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=BRL`)).balance).toBe('0.00')
    const pix = (await psp.control('GET', '/state')).pix.find((candidate: { txid: string }) => candidate.txid === session.payment.txid)
    expect(pix.devolucoes.map((refund: { valor: string; status: string }) => [refund.valor, refund.status])).toEqual([['10.00', 'DEVOLVIDO'], ['15.00', 'DEVOLVIDO']])
    const again = await call('POST', `/v1/transactions/${transactionId}/refund`, {})
    expect(again.status).toBe(409)
    // Each DEVOLVIDO (by callback, then by the worker's reconciliation) is a transaction.refunded, newest first.
    const refundedEvents = (await eventsOf()).filter((event) => event.type === 'transaction.refunded' && event.data.id === transactionId).map((event) => event.data)
    expect(refundedEvents.map((data) => [data.status, data.amountRefunded])).toEqual([['refunded', '25.00'], ['succeeded', '10.00']])
    expect(refundedEvents[0]).toEqual(refunded)
  })
})
