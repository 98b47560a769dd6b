import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// A billing runner that was down (or a test clock moved far at once) catches up period by period:
// the result is exactly what running on time gives, with the invoice dates of their periods.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

const day = 86_400
async function ok(method: string, path: string, body: unknown, key: string) {
  const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

interface Scenario {
  key: string
  manual: string
  automatic: string
  neverPaid: string
}

/** The same customers, plans and subscriptions on a fresh test account. */
async function startScenario(): Promise<Scenario> {
  const key = await app.createKey({ account: `catch-up-${randomUUID().slice(0, 8)}` })
  const customer = await ok('POST', '/v1/customers', { name: 'Subscriber' }, key)
  const firstInvoice = async (subscriptionId: string) =>
    (await ok('GET', '/v1/invoices?limit=1000', undefined, key)).items.find((invoice: { subscriptionId: string }) => invoice.subscriptionId === subscriptionId)
  const pay = async (subscriptionId: string) => ok('POST', `/v1/test_helpers/invoices/${(await firstInvoice(subscriptionId)).id}/pay`, {}, key)

  const plan = await ok('POST', '/v1/products', { name: 'Pro', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } }, key)
  const manual = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' }, key)
  await pay(manual.id)

  const meter = await ok('POST', '/v1/usage/meters', { name: 'Tokens', aggregation: 'sum', unit: 'token', resetPeriod: 'month' }, key)
  const metered = await ok('POST', '/v1/products', { name: 'Metered', type: 'subscription', defaultPrice: { amount: '5', currency: 'USDC', model: 'subscription', interval: 'month' } }, key)
  await ok('POST', `/v1/products/${metered.id}/prices`, { amount: '0.125', currency: 'USDC', model: 'metered', usageBillingMode: 'subscription', meterId: meter.id }, key)
  const automatic = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: metered.id, paymentMethod: 'usdc_pull' }, key)
  await pay(automatic.id)
  for (const quantity of [3, 4.5]) await ok('POST', '/v1/usage/events', { customerId: customer.id, meterId: meter.id, quantity, idempotencyKey: randomUUID() }, key)

  // Never paid at all: stays trialing, never renewed.
  const unpaid = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' }, key)
  return { key, manual: manual.id, automatic: automatic.id, neverPaid: unpaid.id }
}

/** Everything billing wrote for a subscription, with times relative to its anchor (accounts start at different instants). */
async function snapshot(subscriptionId: string) {
  const prisma = app.application.services.database.prisma
  const subscription = await prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { entitlement: true } })
  const anchor = subscription.billingAnchor.getTime()
  const relative = (date: Date | null | undefined) => (date ? (date.getTime() - anchor) / 1000 : null)
  const invoices = await prisma.invoice.findMany({
    where: { subscriptionId },
    orderBy: { periodStart: 'asc' },
    include: { lines: { orderBy: { position: 'asc' } }, transactions: { orderBy: { createdAt: 'asc' } } },
  })
  return {
    status: subscription.status,
    currentPeriodStart: relative(subscription.currentPeriodStart),
    currentPeriodEnd: relative(subscription.currentPeriodEnd),
    entitlement: subscription.entitlement ? { status: subscription.entitlement.status, endsAt: relative(subscription.entitlement.endsAt) } : null,
    invoices: invoices.map((invoice, index) => ({
      status: invoice.status,
      periodStart: relative(invoice.periodStart),
      periodEnd: relative(invoice.periodEnd),
      // The first invoice is issued when the subscription is created; renewals are issued by the cycle.
      createdAt: index === 0 ? 'at creation' : relative(invoice.createdAt),
      dueDate: index === 0 ? 'at creation' : relative(invoice.dueDate),
      paidAt: index === 0 ? 'at payment' : relative(invoice.paidAt),
      total: invoice.total.toFixed(),
      amountPaid: invoice.amountPaid.toFixed(),
      lines: invoice.lines.map((line) => ({ description: line.description, quantity: line.quantity.toFixed(), amount: line.amount.toFixed() })),
      transactions: invoice.transactions.map((transaction) => ({ status: transaction.status, amount: transaction.amount.toFixed(), createdAt: index === 0 ? 'at payment' : relative(transaction.createdAt) })),
    })),
  }
}

describe('catching up gives what running on time gives', () => {
  test('one 100-day step and ten 10-day steps: same statuses, invoices, dates, amounts and entitlements', async () => {
    const [atOnce, stepByStep] = [await startScenario(), await startScenario()]
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 100 * day }, atOnce.key)
    for (let step = 0; step < 10; step += 1) await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 10 * day }, stepByStep.key)

    for (const name of ['manual', 'automatic', 'neverPaid'] as const) {
      expect(await snapshot(atOnce[name]), name).toEqual(await snapshot(stepByStep[name]))
    }

    // What running on time means, on the manual rail: the renewal is issued at the period's start,
    // due 7 days later; unpaid, the subscription goes past_due, and the next period end is not
    // renewed: the entitlement expires.
    const manual = await snapshot(atOnce.manual)
    expect(manual.status).toBe('past_due')
    expect(manual.entitlement?.status).toBe('expired')
    expect(manual.invoices).toHaveLength(2)
    const renewal = manual.invoices[1]!
    expect(renewal).toMatchObject({ status: 'open', total: '49.9', createdAt: renewal.periodStart, dueDate: renewal.periodStart! + 7 * day, paidAt: null })
    expect(manual.currentPeriodStart).toBe(renewal.periodStart)

    // The automatic rail is charged every period, each charge dated at its period's start.
    const automatic = await snapshot(atOnce.automatic)
    expect(automatic.status).toBe('active')
    expect(automatic.entitlement?.status).toBe('active')
    expect(automatic.invoices).toHaveLength(4)
    for (const invoice of automatic.invoices.slice(1)) {
      expect(invoice).toMatchObject({ status: 'paid', createdAt: invoice.periodStart, paidAt: invoice.periodStart })
      expect(invoice.transactions).toEqual([{ status: 'succeeded', amount: invoice.total, createdAt: invoice.periodStart }])
    }
    expect(automatic.invoices[1]!.lines).toEqual([
      { description: 'Metered (monthly fee)', quantity: '1', amount: '5' },
      { description: 'tokens usage', quantity: '7.5', amount: '0.9375' },
    ])
    expect(automatic.invoices[2]!.total).toBe('5')

    expect((await snapshot(atOnce.neverPaid)).status).toBe('trialing')
    expect((await snapshot(atOnce.neverPaid)).invoices).toHaveLength(1)
  })

  test('an invoice paid before its due date keeps the subscription active through the catch-up', async () => {
    const scenario = await startScenario()
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 32 * day }, scenario.key)
    const open = (await snapshot(scenario.manual)).invoices
    expect(open).toHaveLength(2)
    const renewal = (await ok('GET', '/v1/invoices?limit=1000', undefined, scenario.key)).items.find(
      (invoice: { subscriptionId: string; status: string }) => invoice.subscriptionId === scenario.manual && invoice.status === 'open',
    )
    await ok('POST', `/v1/test_helpers/invoices/${renewal.id}/pay`, {}, scenario.key)
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 100 * day }, scenario.key)
    // Paid on time, so the next renewal comes; that one is left unpaid: past_due 7 days later, expired at its period's end.
    const after = await snapshot(scenario.manual)
    expect(after.invoices.map((invoice) => invoice.status)).toEqual(['paid', 'paid', 'open'])
    expect(after.status).toBe('past_due')
    expect(after.entitlement?.status).toBe('expired')
  })
})
