import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

const day = 86_400
async function send(method: string, path: string, body?: unknown, key = app.key) {
  return app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
}
async function ok(method: string, path: string, body?: unknown, key = app.key) {
  const response = await send(method, path, body, key)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}
const advance = (seconds: number, key = app.key) => ok('POST', '/v1/test_helpers/clock/advance', { seconds }, key)
const invoicesOf = async (subscriptionId: string, key = app.key) =>
  (await ok('GET', '/v1/invoices?limit=1000', undefined, key)).items.filter((invoice: { subscriptionId: string }) => invoice.subscriptionId === subscriptionId)
const check = (customerId: string, productId: string, key = app.key) => ok('POST', '/v1/entitlements/check', { customerId, productId }, key)

/** Each scenario gets its own test account, so that moving its clock moves nobody else's. */
async function account() {
  return app.createKey({ account: `subscriptions-${randomUUID().slice(0, 8)}` })
}

describe('the subscription lifecycle', () => {
  test('create → pay → renew (pix_auto at once, pix_manual open) → past_due → pay → pause → resume → cancel', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', { name: 'Subscriber' }, key)
    const plan = await ok('POST', '/v1/products', { name: 'Pro', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } }, key)

    const automatic = await send('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_auto' }, key)
    expect(automatic.status).toBe(201)
    expect(automatic.body.data).toMatchObject({ status: 'trialing', customerId: customer.id, productId: plan.id, priceId: plan.defaultPriceId, paymentMethod: 'pix_auto' })
    const subscription = automatic.body.data
    for (const move of ['pause', 'resume']) {
      expect((await send('POST', `/v1/subscriptions/${subscription.id}/${move}`, {}, key)).body.error.code, `${move} a trialing subscription`).toBe('invalid_state')
    }
    const listed = await ok('GET', `/v1/subscriptions?customerId=${customer.id}`, undefined, key)
    expect(listed.items).toEqual([{ id: subscription.id, status: 'trialing', customerId: customer.id, productId: plan.id, currentPeriodEnd: subscription.currentPeriodEnd, createdAt: subscription.createdAt }])
    const [first] = await invoicesOf(subscription.id, key)
    expect(first).toMatchObject({ status: 'open', amountDue: '49.90', currency: 'BRL', customerId: customer.id })
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: false, reason: 'no_entitlement' })

    const paid = await ok('POST', `/v1/test_helpers/invoices/${first.id}/pay`, {}, key)
    expect(paid).toMatchObject({ status: 'paid', amountPaid: '49.90', paymentUrl: null })
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`, undefined, key)).status).toBe('active')
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: true, reason: 'active' })
    const entitlements = await ok('GET', `/v1/customers/${customer.id}/entitlements`, undefined, key)
    expect(entitlements.items).toEqual([{ id: expect.stringMatching(/^ent_/), productId: plan.id, status: 'active', source: 'subscription', startsAt: expect.any(String), endsAt: subscription.currentPeriodEnd }])

    // A month later: the renewal on an automatic rail is charged at once.
    await advance(32 * day, key)
    const renewed = await ok('GET', `/v1/subscriptions/${subscription.id}`, undefined, key)
    expect(renewed.status).toBe('active')
    expect(renewed.currentPeriodStart).toBe(subscription.currentPeriodEnd)
    const afterRenewal = await invoicesOf(subscription.id, key)
    expect(afterRenewal).toHaveLength(2)
    expect(afterRenewal[0]).toMatchObject({ status: 'paid', amountDue: '49.90' })

    // The same plan on a manual rail: the renewal waits, open, for the payer.
    const manual = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' }, key)
    await ok('POST', `/v1/test_helpers/invoices/${(await invoicesOf(manual.id, key))[0].id}/pay`, {}, key)
    await advance(32 * day, key)
    const [renewal] = await invoicesOf(manual.id, key)
    const detail = await ok('GET', `/v1/invoices/${renewal.id}`, undefined, key)
    expect(detail).toMatchObject({ status: 'open', total: '49.90', amountPaid: '0.00', paymentUrl: `http://billing.test/invoices/${renewal.id}` })
    expect(detail.lines).toEqual([{ description: 'Pro (monthly fee)', priceId: plan.defaultPriceId, meterId: null, quantity: 1, unitAmount: '49.90', amount: '49.90' }])
    expect(new Date(detail.dueDate).getTime() - new Date(detail.createdAt).getTime()).toBe(7 * day * 1000)

    // Unpaid past its due date: past_due, and the check says so.
    await advance(8 * day, key)
    expect((await ok('GET', `/v1/subscriptions/${manual.id}`, undefined, key)).status).toBe('past_due')
    expect((await ok('GET', `/v1/customers/${customer.id}/entitlements`, undefined, key)).items.map((item: { status: string }) => item.status).sort()).toEqual(['active', 'past_due'])
    await ok('POST', `/v1/test_helpers/invoices/${renewal.id}/pay`, {}, key)
    expect((await ok('GET', `/v1/subscriptions/${manual.id}`, undefined, key)).status).toBe('active')

    // Pause, resume, cancel — and every move the state machine forbids.
    await ok('POST', `/v1/subscriptions/${subscription.id}/cancel`, {}, key)
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: true, reason: 'active' })
    expect(await ok('POST', `/v1/subscriptions/${manual.id}/pause`, {}, key)).toEqual({ id: manual.id, status: 'paused' })
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: false, reason: 'revoked' })
    expect((await send('POST', `/v1/subscriptions/${manual.id}/pause`, {}, key)).body.error.code).toBe('invalid_state')
    expect(await ok('POST', `/v1/subscriptions/${manual.id}/resume`, {}, key)).toEqual({ id: manual.id, status: 'active' })
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: true, reason: 'active' })
    expect((await send('POST', `/v1/subscriptions/${manual.id}/resume`, {}, key)).body.error.code).toBe('invalid_state')
    const canceled = await ok('POST', `/v1/subscriptions/${manual.id}/cancel`, {}, key)
    expect(canceled).toEqual({ id: manual.id, status: 'canceled', canceledAt: expect.any(String) })
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: false, reason: 'revoked' })
    for (const move of ['cancel', 'pause', 'resume']) {
      const refused = await send('POST', `/v1/subscriptions/${manual.id}/${move}`, {}, key)
      expect(refused.status, move).toBe(409)
      expect(refused.body.error.code).toBe('invalid_state')
    }
    // A canceled subscription is not billed again.
    const invoiceCount = (await invoicesOf(manual.id, key)).length
    await advance(40 * day, key)
    expect(await invoicesOf(manual.id, key)).toHaveLength(invoiceCount)
  })

  test('a period that ends while past_due is not renewed: the entitlement expires', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', {}, key)
    const plan = await ok('POST', '/v1/products', { name: 'Basic', type: 'subscription', defaultPrice: { amount: '5', currency: 'USDC', model: 'subscription', interval: 'month' } }, key)
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id }, key)
    expect(subscription.paymentMethod).toBe('usdc_invoice')
    await ok('POST', `/v1/test_helpers/invoices/${(await invoicesOf(subscription.id, key))[0].id}/pay`, {}, key)
    await advance(32 * day, key)
    const [renewal] = await invoicesOf(subscription.id, key)
    const failed = await ok('POST', `/v1/test_helpers/invoices/${renewal.id}/fail`, {}, key)
    expect(failed.status).toBe('open')
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`, undefined, key)).status).toBe('past_due')
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: false, reason: 'past_due' })
    await advance(32 * day, key)
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: false, reason: 'expired' })
    expect(await invoicesOf(subscription.id, key)).toHaveLength(2)
    const transactions = (await ok('GET', '/v1/transactions', undefined, key)).items.map((item: { status: string }) => item.status)
    expect(transactions).toContain('failed')
  })

  test('rails: the default fits the currency; a rail that does not fit or is disabled is 422', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', {}, key)
    const plan = await ok('POST', '/v1/products', { name: 'Reais', type: 'subscription', defaultPrice: { amount: '10', currency: 'BRL', model: 'subscription', interval: 'year' } }, key)
    const wrong = await send('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'usdc_pull' }, key)
    expect(wrong.status).toBe(422)
    expect(wrong.body.error).toMatchObject({ code: 'rail_not_available', param: 'paymentMethod' })
    const disabled = await app.graphql('mutation { setEnabledRails(rails: [pix_auto]) { enabledRails } }', {}, key)
    expect(disabled.body.data.setEnabledRails.enabledRails).toEqual(['pix_auto'])
    expect((await send('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' }, key)).body.error.code).toBe('rail_not_available')
    const chosen = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id }, key)
    expect(chosen.paymentMethod).toBe('pix_auto')
    expect(new Date(chosen.currentPeriodEnd).getUTCFullYear() - new Date(chosen.currentPeriodStart).getUTCFullYear()).toBe(1)
    const oneTime = await ok('POST', '/v1/products', { name: 'Once', type: 'one_time', defaultPrice: { amount: '10', currency: 'BRL', model: 'one_time' } }, key)
    expect((await send('POST', '/v1/subscriptions', { customerId: customer.id, productId: oneTime.id }, key)).body.error.code).toBe('invalid_state')
  })

  test('archiving a product with a subscription that is not canceled is 409 active_subscription', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', {}, key)
    const plan = await ok('POST', '/v1/products', { name: 'Kept', type: 'subscription', defaultPrice: { amount: '1', currency: 'USDC', model: 'subscription', interval: 'month' } }, key)
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id }, key)
    const refused = await send('POST', `/v1/products/${plan.id}/archive`, {}, key)
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('active_subscription')
    await ok('POST', `/v1/subscriptions/${subscription.id}/cancel`, {}, key)
    expect((await ok('POST', `/v1/products/${plan.id}/archive`, {}, key)).status).toBe('archived')
    expect((await send('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id }, key)).body.error.code).toBe('invalid_state')
  })

  test('checkout mode subscription: paying creates the active subscription, its entitlement and a paid first invoice', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', {}, key)
    const plan = await ok('POST', '/v1/products', { name: 'Team', type: 'subscription', defaultPrice: { amount: '99', currency: 'USDC', model: 'subscription', interval: 'month' } }, key)
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'subscription', customerId: customer.id, productId: plan.id }, key)
    expect(session).toMatchObject({ amount: '99.000000', currency: 'USDC', subscriptionId: null })
    const paid = await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`, {}, key)
    expect(paid.subscriptionId).toMatch(/^sub_/)
    expect(await ok('GET', `/v1/subscriptions/${paid.subscriptionId}`, undefined, key)).toMatchObject({ status: 'active' })
    const [invoice] = await invoicesOf(paid.subscriptionId, key)
    expect(invoice.status).toBe('paid')
    expect(await check(customer.id, plan.id, key)).toEqual({ allowed: true, reason: 'active' })
    const transactions = (await ok('GET', '/v1/transactions', undefined, key)).items
    expect(transactions).toHaveLength(1)
    expect(transactions[0]).toMatchObject({ checkoutId: session.id, amount: '99.000000', status: 'succeeded' })
  })
})

describe('usage-based billing', () => {
  test('metered usage over two periods → two invoices whose usage lines match the events; access follows the entitlement', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', {}, key)
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Tokens', aggregation: 'sum', unit: 'token', resetPeriod: 'month' }, key)
    const runs = await ok('POST', '/v1/usage/meters', { name: 'Runs', aggregation: 'count', unit: 'run', resetPeriod: 'month' }, key)
    const product = await ok('POST', '/v1/products', {
      name: 'Metered plan',
      type: 'subscription',
      defaultPrice: { amount: '0.10', currency: 'USDC', model: 'metered', usageBillingMode: 'subscription', meterId: meter.id },
    }, key)
    await ok('POST', `/v1/products/${product.id}/prices`, { amount: '2', currency: 'USDC', model: 'metered', usageBillingMode: 'subscription', meterId: runs.id }, key)
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: product.id, paymentMethod: 'usdc_pull' }, key)
    // Usage only: the first invoice is zero, so the subscription is active at once.
    expect(subscription.status).toBe('active')
    expect(await ok('POST', '/v1/access/check', { customerId: customer.id, meterId: meter.id, quantity: 1000 }, key)).toMatchObject({ allowed: true, reason: 'credits_available' })

    const use = (meterId: string, quantity: number) => ok('POST', '/v1/usage/events', { customerId: customer.id, meterId, quantity, idempotencyKey: randomUUID() }, key)
    await use(meter.id, 3)
    await use(meter.id, 4.5)
    await use(runs.id, 10)
    await use(runs.id, 10)
    await advance(32 * day, key)
    await use(meter.id, 5)
    await use(runs.id, 1)
    await advance(32 * day, key)

    const invoices = (await invoicesOf(subscription.id, key)).reverse()
    expect(invoices).toHaveLength(3)
    const details = await Promise.all(invoices.map((invoice: { id: string }) => ok('GET', `/v1/invoices/${invoice.id}`, undefined, key)))
    expect(details[0].lines).toEqual([])
    expect(details[1].lines).toEqual([
      { description: 'tokens usage', priceId: product.defaultPriceId, meterId: meter.id, quantity: 7.5, unitAmount: '0.100000', amount: '0.750000' },
      { description: 'runs usage', priceId: expect.stringMatching(/^price_/), meterId: runs.id, quantity: 2, unitAmount: '2.000000', amount: '4.000000' },
    ])
    expect(details[1]).toMatchObject({ total: '4.750000', status: 'paid' })
    expect(details[2].lines.map((line: { quantity: number }) => line.quantity)).toEqual([5, 1])
    expect(details[2].total).toBe('2.500000')
    // No usage lost between periods: the invoices hold every event exactly once.
    const events = (await ok('GET', `/v1/usage/events?customerId=${customer.id}&meterId=${meter.id}`, undefined, key)).items
    const invoiced = details.flatMap((detail) => detail.lines).filter((line: { meterId: string }) => line.meterId === meter.id)
    expect(invoiced.reduce((sum: number, line: { quantity: number }) => sum + line.quantity, 0)).toBe(events.reduce((sum: number, event: { quantity: number }) => sum + event.quantity, 0))

    await ok('POST', `/v1/subscriptions/${subscription.id}/cancel`, {}, key)
    expect(await ok('POST', '/v1/access/check', { customerId: customer.id, meterId: meter.id, quantity: 1 }, key)).toMatchObject({ allowed: false, reason: 'no_entitlement' })
  })
})

describe('invoices', () => {
  test('paged across more than one page with cursor and its alias before; limit 1..1000', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', {}, key)
    const plan = await ok('POST', '/v1/products', { name: 'Paged', type: 'subscription', defaultPrice: { amount: '1', currency: 'USDC', model: 'subscription', interval: 'month' } }, key)
    for (let index = 0; index < 5; index += 1) await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id }, key)
    const seen: string[] = []
    let cursor: string | null = null
    let alias = false
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await ok('GET', `/v1/invoices?limit=2${cursor ? `&${alias ? 'before' : 'cursor'}=${encodeURIComponent(cursor)}` : ''}`, undefined, key)
      seen.push(...page.items.map((item) => item.id))
      cursor = page.nextCursor
      alias = !alias
    } while (cursor)
    expect(seen).toHaveLength(5)
    expect(new Set(seen).size).toBe(5)
    for (const limit of ['0', '1001']) expect((await send('GET', `/v1/invoices?limit=${limit}`, undefined, key)).body.error).toMatchObject({ code: 'validation_error', param: 'limit' })
    expect((await send('GET', '/v1/invoices?limit=1000', undefined, key)).status).toBe(200)
  })
})

describe('access by entitlement', () => {
  test('subscription-mode usage: past_due and expired entitlements deny access with their reasons', async () => {
    const key = await account()
    const customer = await ok('POST', '/v1/customers', {}, key)
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Queries', aggregation: 'count', unit: 'query', resetPeriod: 'week' }, key)
    const product = await ok('POST', '/v1/products', {
      name: 'Queries plan',
      type: 'subscription',
      defaultPrice: { amount: '20', currency: 'USDC', model: 'subscription', interval: 'month' },
    }, key)
    await ok('POST', `/v1/products/${product.id}/prices`, { amount: '0.01', currency: 'USDC', model: 'metered', usageBillingMode: 'subscription', meterId: meter.id }, key)
    const accessCheck = () => ok('POST', '/v1/access/check', { customerId: customer.id, meterId: meter.id, quantity: 1 }, key)
    expect(await accessCheck()).toMatchObject({ allowed: false, reason: 'no_entitlement' })
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: product.id, paymentMethod: 'usdc_invoice' }, key)
    await ok('POST', `/v1/test_helpers/invoices/${(await invoicesOf(subscription.id, key))[0].id}/pay`, {}, key)
    expect(await accessCheck()).toEqual({ allowed: true, reason: 'credits_available', paymentUrl: null })
    for (let index = 0; index < 3; index += 1) await ok('POST', '/v1/usage/events', { customerId: customer.id, meterId: meter.id, quantity: 9, idempotencyKey: randomUUID() }, key)
    const summary = await app.graphql('query($c: ID!, $m: ID!) { usageSummary(customerId: $c, meterId: $m) { units resetPeriod windowStart windowEnd } }', { c: customer.id, m: meter.id }, key)
    expect(summary.body.data.usageSummary).toMatchObject({ units: 3, resetPeriod: 'week' })
    expect(new Date(summary.body.data.usageSummary.windowStart).getUTCDay()).toBe(1)

    await advance(32 * day, key)
    const fresh = await app.graphql('query($c: ID!, $m: ID!) { usageSummary(customerId: $c, meterId: $m) { units } }', { c: customer.id, m: meter.id }, key)
    expect(fresh.body.data.usageSummary.units).toBe(0)
    await advance(8 * day, key)
    expect(await accessCheck()).toEqual({ allowed: false, reason: 'entitlement_past_due', paymentUrl: null })
    await advance(30 * day, key)
    expect(await accessCheck()).toEqual({ allowed: false, reason: 'entitlement_expired', paymentUrl: null })
  })
})
