import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runBillingCycle } from '../src/billing/runBillingCycle'
import { runPixWork } from '../src/payments/pix/runPixWork'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issuing an invoice never records money; collecting it goes through the provider of its currency.
// An automatic rail (pix_auto) renewed on an account with a PIX provider stays open until the PSP
// reports the money, on live and test accounts alike; only a test account without a provider has
// its sandbox charge it at once.

let app: TestApplication
let psp: PixSimulatorProcess

beforeAll(async () => {
  ;[app, psp] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator()])
})
afterAll(async () => {
  await app.close()
  await psp.stop()
})

const day = 86_400_000
const configure = `mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { configuredAt } }`

function client(key: string) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
    return response.body.data
  }
  return { ok }
}

async function configurePix(key: string, pixKey: string): Promise<void> {
  const response = await app.graphql(configure, { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey } }, key)
  expect(response.body.errors).toBeUndefined()
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition never held')
}

/** A pix_auto subscription whose first invoice is paid through the PSP, then one renewal run 35 days later. */
async function renewPixAuto(key: string, accountName: string) {
  const { ok } = client(key)
  const prisma = app.application.services.database.prisma
  const customer = await ok('POST', '/v1/customers', { name: 'Automática', taxId: '12345678909' })
  const plan = await ok('POST', '/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } })
  const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_auto' })
  const account = await prisma.account.findUniqueOrThrow({ where: { name: accountName } })
  const invoicesOf = async () => (await ok('GET', `/v1/invoices?limit=100`)).items.filter((invoice: { subscriptionId: string }) => invoice.subscriptionId === subscription.id)

  const [first] = await invoicesOf()
  expect(first.status).toBe('open')
  await runPixWork(prisma, { force: true })
  const firstPayment = (await ok('GET', `/v1/invoices/${first.id}`)).payment
  expect(firstPayment).toMatchObject({ rail: 'pix' })
  await psp.control('POST', `/cob/${firstPayment.txid}/pay`)
  await waitFor(() => ok('GET', `/v1/subscriptions/${subscription.id}`), (value) => value.status === 'active')
  // Paying the first invoice's composite code also authorized the Pix Automático recurrence.
  await waitFor(() => prisma.pixRecurrence.findUnique({ where: { subscriptionId: subscription.id } }), (value) => value?.status === 'APROVADA')

  const renewedAt = new Date(Date.now() + Number(account.clockOffsetMs) + 35 * day)
  const result = await runBillingCycle(prisma, { accountId: account.id, realNow: new Date(renewedAt.getTime() - Number(account.clockOffsetMs)) })
  expect(result.renewed).toBe(1)
  const renewal = (await invoicesOf()).find((invoice: { id: string }) => invoice.id !== first.id)
  const charges = await prisma.transaction.findMany({ where: { invoiceId: renewal.id } })
  return { ok, prisma, subscription, renewal, charges }
}

describe('collecting pix_auto renewals', () => {
  test('live account with a PSP: the renewal stays open with no money recorded, gets its recurring charge (Pix Automático), and is paid only when the PSP reports the money', async () => {
    const name = `collect-live-${randomUUID().slice(0, 8)}`
    const key = await app.createKey({ account: name, mode: 'live' })
    await configurePix(key, `${name}@example.com.br`)
    const { ok, prisma, subscription, renewal, charges } = await renewPixAuto(key, name)
    expect(renewal.status).toBe('open')
    expect(charges).toEqual([])
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active')

    await runPixWork(prisma, { force: true })
    const payment = (await ok('GET', `/v1/invoices/${renewal.id}`)).payment
    expect(payment).toMatchObject({ rail: 'pix_automatico', status: 'ATIVA' })
    await psp.control('POST', `/cobr/${payment.txid}/pay`)
    await waitFor(() => ok('GET', `/v1/invoices/${renewal.id}`), (value) => value.status === 'paid')
    const settled = await prisma.transaction.findMany({ where: { invoiceId: renewal.id } })
    expect(settled.map((transaction) => [transaction.status, transaction.amount.toFixed(2)])).toEqual([['succeeded', '49.90']])

    // The events of the renewal (the billing runner's cycle) and of the PSP's callbacks paying both invoices.
    const events = (await ok('GET', '/v1/events?limit=500')).items as { type: string; data: Record<string, unknown> }[]
    const of = (type: string) => events.filter((event) => event.type === type).map((event) => event.data).reverse()
    const renewed = await ok('GET', `/v1/invoices/${renewal.id}`)
    const first = of('invoice.created')[0]!
    expect(of('invoice.created').map((invoice) => invoice.id)).toEqual([first.id, renewal.id])
    expect(of('invoice.created')[1]).toMatchObject({ id: renewal.id, status: 'open', periodStart: renewed.periodStart })
    expect(of('invoice.paid').map((invoice) => [invoice.id, invoice.status])).toEqual([[first.id, 'paid'], [renewal.id, 'paid']])
    expect(of('invoice.paid')[1]).toEqual(renewed)
    expect(of('transaction.succeeded').map((transaction) => [transaction.invoiceId, transaction.amount])).toEqual([[first.id, '49.90'], [renewal.id, '49.90']])
    // Paid (trialing → active), then the period change of the renewal, each with the subscription as it then was.
    const updates = of('subscription.updated')
    expect(updates.map((update) => [update.status, update.currentPeriodStart])).toEqual([
      ['active', updates[0]!.currentPeriodStart],
      ['active', renewed.periodStart],
    ])
    expect(updates[0]!.currentPeriodStart).not.toBe(renewed.periodStart)
    expect(of('invoice.payment_failed')).toEqual([])
  })

  test('test account with a PSP: the provider collects, the sandbox does not', async () => {
    const name = `collect-test-psp-${randomUUID().slice(0, 8)}`
    const key = await app.createKey({ account: name, mode: 'test' })
    await configurePix(key, `${name}@example.com.br`)
    const { renewal, charges } = await renewPixAuto(key, name)
    expect(renewal.status).toBe('open')
    expect(charges).toEqual([])
  })

  test('test account without a provider: the sandbox charges the automatic rail at once', async () => {
    const name = `collect-sandbox-${randomUUID().slice(0, 8)}`
    const key = await app.createKey({ account: name, mode: 'test' })
    const { ok } = client(key)
    const prisma = app.application.services.database.prisma
    const customer = await ok('POST', '/v1/customers', { name: 'Sandbox' })
    const plan = await ok('POST', '/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_auto' })
    const first = (await ok('GET', '/v1/invoices?limit=100')).items.find((invoice: { subscriptionId: string }) => invoice.subscriptionId === subscription.id)
    await ok('POST', `/v1/test_helpers/invoices/${first.id}/pay`, {})
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 35 * 86_400 })
    const renewal = (await ok('GET', '/v1/invoices?limit=100')).items.find((invoice: { subscriptionId: string; id: string }) => invoice.subscriptionId === subscription.id && invoice.id !== first.id)
    expect(renewal.status).toBe('paid')
    const charges = await prisma.transaction.findMany({ where: { invoiceId: renewal.id } })
    expect(charges.map((transaction) => [transaction.status, transaction.amount.toFixed(2)])).toEqual([['succeeded', '49.90']])
    // The renewal's events: issued, charged by the sandbox at once, and the subscription's new period.
    const events = (await ok('GET', '/v1/events?limit=500')).items as { type: string; data: Record<string, unknown> }[]
    const about = (type: string, key: string, id: string) => events.filter((event) => event.type === type && event.data[key] === id).map((event) => event.data)
    const renewed = await ok('GET', `/v1/invoices/${renewal.id}`)
    expect(about('invoice.created', 'id', renewal.id)).toHaveLength(1)
    expect(about('invoice.paid', 'id', renewal.id)).toEqual([renewed])
    expect(about('transaction.succeeded', 'invoiceId', renewal.id).map((transaction) => transaction.amount)).toEqual(['49.90'])
    expect(about('subscription.updated', 'id', subscription.id).map((update) => update.currentPeriodStart)).toContain(renewed.periodStart)
  })
})
