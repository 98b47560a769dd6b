import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runBillingCycle } from '../src/billing/runBillingCycle'
import { runPixWork } from '../src/payments/pix/runPixWork'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 10 item 7, CONTRACT §9: on a live account nothing is ever paid unless its provider says the
// money arrived. Every path that could mark a checkout session or an invoice paid is tried on a live
// account whose PSP is the simulator (a separate process): the sandbox helpers (REST and GraphQL),
// the payer's pages, callbacks without a payment (forged, or another merchant's real one), a
// reconciliation that finds nothing, the billing runner renewing pix_manual and pix_auto
// subscriptions far ahead. Then, for every paid session and invoice and every succeeded transaction
// of the account, the PSP's confirmed money must be there.

let app: TestApplication
let psp: PixSimulatorProcess
let pool: pg.Pool
let liveKey: string
let accountId: string
let pixKey: string

const configure = `mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { webhookUrl } }`

beforeAll(async () => {
  ;[app, psp] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator()])
  pool = new pg.Pool({ connectionString: app.databaseUrl, max: 2 })
  const name = `no-fake-money-${randomUUID().slice(0, 8)}`
  liveKey = await app.createKey({ account: name, mode: 'live' })
  pixKey = `${name}@example.com.br`
  expect((await app.graphql(configure, { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey } }, liveKey)).body.errors).toBeUndefined()
  accountId = (await pool.query('SELECT id FROM "Account" WHERE name = $1', [name])).rows[0].id
})
afterAll(async () => {
  await pool.end()
  await app.close()
  await psp.stop()
})

async function call(method: string, path: string, body?: unknown, key = liveKey) {
  return app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
}
async function ok(method: string, path: string, body?: unknown, key = liveKey) {
  const response = await call(method, path, body, key)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}
const prisma = () => app.application.services.database.prisma
const rows = async (sql: string, parameters: unknown[] = []) => (await pool.query(sql, parameters)).rows

/** Every paid session and invoice, and every succeeded transaction, of the account, each with the PSP's money behind it. */
async function moneyBehindEverythingPaid(): Promise<{ paid: number; unbacked: unknown[] }> {
  const unbacked = await rows(
    `SELECT 'transaction' AS kind, t.id, t.amount::text FROM "Transaction" t
       WHERE t."accountId" = $1 AND t.status IN ('succeeded', 'refunded')
         AND COALESCE((SELECT sum(p.amount) FROM "PixPayment" p WHERE p."transactionId" = t.id), 0) < t.amount
     UNION ALL
     SELECT 'session', s.id, s.amount::text FROM "CheckoutSession" s
       WHERE s."accountId" = $1 AND s.status = 'paid'
         AND COALESCE((SELECT sum(p.amount) FROM "PixCharge" c JOIN "PixPayment" p ON p.txid = c.txid WHERE c."checkoutSessionId" = s.id), 0) < s.amount
     UNION ALL
     SELECT 'invoice', i.id, i."amountDue"::text FROM "Invoice" i
       WHERE i."accountId" = $1 AND i.status = 'paid' AND i."amountDue" > 0
         AND COALESCE((SELECT sum(p.amount) FROM "PixCharge" c JOIN "PixPayment" p ON p.txid = c.txid WHERE c."invoiceId" = i.id), 0) < i."amountDue"`,
    [accountId],
  )
  const [{ paid }] = await rows(
    `SELECT (SELECT count(*) FROM "CheckoutSession" WHERE "accountId" = $1 AND status = 'paid') + (SELECT count(*) FROM "Invoice" WHERE "accountId" = $1 AND status = 'paid' AND "amountDue" > 0) AS paid`,
    [accountId],
  )
  return { paid: Number(paid), unbacked }
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition never held')
}

describe('no fake money on a live account', () => {
  test('every path that could mark something paid, tried; only the PSP\'s money pays', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Cliente real', taxId: '12345678909' })
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '50.00', currency: 'BRL' })
    const plan = await ok('POST', '/v1/products', { name: 'Mensal', type: 'subscription', defaultPrice: { amount: '30.00', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const oneTime = await ok('POST', '/v1/products', { name: 'Avulso', type: 'one_time', defaultPrice: { amount: '70.00', currency: 'BRL', model: 'one_time' } })
    const purchase = await ok('POST', '/v1/checkout/sessions', { mode: 'payment', customerId: customer.id, productId: oneTime.id })
    const manual = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' })
    const automatic = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_auto' })
    const invoices = async () => (await ok('GET', '/v1/invoices?limit=100')).items as { id: string; subscriptionId: string; status: string }[]
    const [manualInvoice] = (await invoices()).filter((invoice) => invoice.subscriptionId === manual.id)
    await runPixWork(prisma(), { force: true })
    const invoiceTxid = (await ok('GET', `/v1/invoices/${manualInvoice!.id}`)).payment.txid as string

    // USDC on a live account without its provider: no way in at all.
    const usdc = await call('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '5', currency: 'USDC' })
    expect(usdc.body.error?.code).toBe('rail_not_available')

    // The sandbox helpers, REST and GraphQL: not found for a live key.
    for (const [path, body] of [
      [`/v1/test_helpers/checkout/sessions/${session.id}/pay`, {}],
      [`/v1/test_helpers/checkout/sessions/${purchase.id}/pay`, {}],
      [`/v1/test_helpers/invoices/${manualInvoice!.id}/pay`, {}],
      [`/v1/test_helpers/invoices/${manualInvoice!.id}/fail`, {}],
      ['/v1/test_helpers/clock/advance', { seconds: 40 * 86_400 }],
    ] as const) {
      const refused = await call('POST', path, body)
      expect(refused.status, path).toBe(404)
    }
    for (const [mutation, variables] of [
      ['mutation($id: ID!) { payCheckoutSessionForTesting(id: $id) { status } }', { id: session.id }],
      ['mutation($id: ID!) { payInvoiceForTesting(id: $id) { status } }', { id: manualInvoice!.id }],
      ['mutation { advanceClockForTesting(input: { seconds: 3456000 }) { now } }', {}],
    ] as const) {
      const refused = await app.graphql(mutation, variables, liveKey)
      expect(refused.body.errors?.[0]?.extensions?.code, mutation).toBe('not_found')
    }

    // The payer's pages: no settle button, and posting to it is 404.
    for (const path of [`/checkout/${session.id}`, `/checkout/${purchase.id}`, `/invoices/${manualInvoice!.id}`]) {
      const page = await (await fetch(`${app.baseUrl}${path}`)).text()
      expect(page).not.toContain('sandbox-pay')
      expect((await fetch(`${app.baseUrl}${path}/pay`, { method: 'POST', redirect: 'manual' })).status, path).toBe(404)
    }

    // Callbacks with no payment behind them: forged bodies for our charges, and another merchant's
    // real payment sent to our webhook.
    const webhookUrl = (await psp.control('GET', '/state')).webhooks[pixKey] as string
    const forged = (txid: string, valor: string) => ({ endToEndId: `E99999999${'2'.repeat(12)}${randomUUID().replace(/-/g, '').slice(0, 11)}`, txid, valor, horario: new Date().toISOString() })
    const otherKey = await app.createKey({ account: `other-merchant-${randomUUID().slice(0, 8)}`, mode: 'live' })
    expect((await app.graphql(configure, { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey: `other-${pixKey}` } }, otherKey)).body.errors).toBeUndefined()
    const otherCustomer = await ok('POST', '/v1/customers', { name: 'Outro' }, otherKey)
    const otherSession = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: otherCustomer.id, amount: '50.00', currency: 'BRL' }, otherKey)
    const theirs = await psp.control('POST', `/cob/${otherSession.payment.txid}/pay`, { callback: false })
    for (const body of [
      { pix: [forged(session.payment.txid, '50.00'), forged(purchase.payment.txid, '70.00'), forged(invoiceTxid, '30.00')] },
      { pix: [{ ...theirs, txid: session.payment.txid }] },
      { pix: [theirs] },
    ]) {
      const answer = await fetch(`${webhookUrl}/pix`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      expect(answer.status).toBe(200)
    }

    // Reconciliation that finds nothing of ours, and the billing runner far ahead (renewals of both rails).
    await runPixWork(prisma(), { force: true })
    await runBillingCycle(prisma(), { accountId, realNow: new Date(Date.now() + 40 * 86_400_000) })
    await runBillingCycle(prisma(), { accountId, realNow: new Date(Date.now() + 80 * 86_400_000) })

    expect(await moneyBehindEverythingPaid()).toEqual({ paid: 0, unbacked: [] })
    expect(await rows(`SELECT id FROM "Transaction" WHERE "accountId" = $1 AND status = 'succeeded'`, [accountId])).toEqual([])
    expect(await rows(`SELECT id FROM "CreditLedgerEntry" WHERE "accountId" = $1 AND kind = 'grant'`, [accountId])).toEqual([])
    expect(await rows(`SELECT id FROM "Entitlement" WHERE "accountId" = $1 AND status = 'active'`, [accountId])).toEqual([])
    // The runner far ahead expired the sessions (their day is over); none was paid.
    for (const id of [session.id, purchase.id]) expect((await ok('GET', `/v1/checkout/sessions/${id}`)).status).toBe('expired')
    expect((await ok('GET', `/v1/subscriptions/${manual.id}`)).status).toBe('trialing')
    expect((await ok('GET', `/v1/subscriptions/${automatic.id}`)).status).toBe('trialing')

    // The PSP's money, and only it, pays: the subscriptions' first invoices, then renewals far ahead,
    // which stay open (pix_manual and pix_auto alike) until the PSP reports their money too.
    const real = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '50.00', currency: 'BRL' })
    await psp.control('POST', `/cob/${real.payment.txid}/pay`)
    await psp.control('POST', `/cob/${invoiceTxid}/pay`)
    const subscriptions = [manual.id, automatic.id]
    const [automaticInvoice] = (await invoices()).filter((invoice) => invoice.subscriptionId === automatic.id)
    await psp.control('POST', `/cob/${(await ok('GET', `/v1/invoices/${automaticInvoice!.id}`)).payment.txid}/pay`)
    for (const id of subscriptions) await waitFor(() => ok('GET', `/v1/subscriptions/${id}`), (value) => value.status === 'active')
    await waitFor(() => ok('GET', `/v1/checkout/sessions/${real.id}`), (value) => value.status === 'paid')
    const before = await moneyBehindEverythingPaid()
    expect(before.unbacked).toEqual([])
    const realNow = new Date(Date.now() + 35 * 86_400_000)
    expect((await runBillingCycle(prisma(), { accountId, realNow })).renewed).toBe(subscriptions.length)
    await runPixWork(prisma(), { force: true })
    const renewals = (await invoices()).filter((invoice) => subscriptions.includes(invoice.subscriptionId) && invoice.status !== 'paid')
    expect(renewals.map((invoice) => invoice.status)).toEqual(subscriptions.map(() => 'open'))
    const after = await moneyBehindEverythingPaid()
    expect(after).toEqual({ paid: before.paid, unbacked: [] })
    expect(before.paid).toBe(1 + subscriptions.length)
  }, 120_000)
})
