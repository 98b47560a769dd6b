import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import type { TestApplication } from './startTestApplication'

export interface SeededCatalog {
  customerId: string
  meterId: string
  productId: string
  priceId: string
  sessionId: string
  transactionId: string
  subscriptionId: string
  invoiceId: string
  eventId: string
  endpointId: string
}

/** One of everything through the public API: a customer, a meter, a credits product and price, a paid checkout, a subscription and its first invoice, their events, and a webhook endpoint. */
export async function seedCatalog(app: TestApplication, key = app.key, unitPrice = '0.5'): Promise<SeededCatalog> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
    return response.body.data
  }
  const customer = await ok('POST', '/v1/customers', { name: 'Seeded' })
  const meter = await ok('POST', '/v1/usage/meters', { name: 'API calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
  const product = await ok('POST', '/v1/products', {
    name: 'Pay as you go',
    type: 'metered',
    defaultPrice: { amount: unitPrice, currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id },
  })
  const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '1.00', currency: 'USDC' })
  await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
  const transactions = await ok('GET', '/v1/transactions?limit=1')
  const plan = await ok('POST', '/v1/products', { name: 'Plan', type: 'subscription', defaultPrice: { amount: '10', currency: 'USDC', model: 'subscription', interval: 'month' } })
  const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id })
  const invoices = await ok('GET', '/v1/invoices?limit=1')
  const events = await ok('GET', '/v1/events?limit=1')
  // No delivery worker runs in a test application, so nothing is ever sent to this address.
  const endpoint = await ok('POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/seeded', events: ['*'] })
  return {
    subscriptionId: subscription.id,
    invoiceId: invoices.items[0].id,
    eventId: events.items[0].id,
    endpointId: endpoint.id,
    customerId: customer.id,
    meterId: meter.id,
    productId: product.id,
    priceId: product.defaultPriceId,
    sessionId: session.id,
    transactionId: transactions.items[0].id,
  }
}

/** A route path with its {parameters} filled from the seeded ids. */
export function fillPath(path: string, ids: SeededCatalog): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (ids as unknown as Record<string, string>)[name]
    if (!value) throw new Error(`no seeded id for {${name}}`)
    return value
  })
}
