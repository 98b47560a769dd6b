import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chooseRange } from '../src/dashboard/client/chooseRange'
import { launchBrowser } from './support/launchBrowser'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// GET /dashboard as a person uses it, in the headless Chromium: data seeded through the API, the key
// entered once, every figure shown compared with what /graphql answers, a customer page, a phone-sized
// screen, and a customer whose name is HTML shown as text. Screenshots go to a temporary folder.

let app: TestApplication
let browser: Browser
let screenshots: string
beforeAll(async () => {
  ;[app, browser, screenshots] = await Promise.all([startTestApplication(), launchBrowser(), mkdtemp(path.join(tmpdir(), 'dashboard-screenshots-'))])
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await app.graphql(query, variables)
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined()
  return response.body.data
}

async function buyCredits(customerId: string, amount: string) {
  const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount, currency: 'USDC' })
  await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`)
}

const hostileName = '<img src=x onerror="window.hacked=1">Evil & Co'

interface Seeded {
  meter: { id: string }
  heavy: { id: string }
  hostile: { id: string }
}

async function seed(): Promise<Seeded> {
  const meter = await ok('POST', '/v1/usage/meters', { name: 'API calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
  await ok('POST', '/v1/products', { name: 'Call credits', type: 'metered', defaultPrice: { amount: '0.1', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
  const monthly = await ok('POST', '/v1/products', { name: 'Pro monthly', type: 'subscription', defaultPrice: { amount: '10', currency: 'USDC', model: 'subscription', interval: 'month' } })
  const heavy = await ok('POST', '/v1/customers', { name: 'Heavy user', email: 'heavy@example.com' })
  const hostile = await ok('POST', '/v1/customers', { name: hostileName, email: 'evil@example.com' })
  await buyCredits(heavy.id, '5')
  await buyCredits(hostile.id, '3')
  for (let use = 0; use < 3; use += 1) await ok('POST', '/v1/usage/events', { customerId: heavy.id, meterId: meter.id, quantity: 2, idempotencyKey: randomUUID() })
  await ok('POST', '/v1/usage/events', { customerId: hostile.id, meterId: meter.id, quantity: 4, idempotencyKey: randomUUID() })
  await ok('POST', '/v1/subscriptions', { customerId: heavy.id, productId: monthly.id })
  const invoices = await ok('GET', '/v1/invoices?limit=1')
  await ok('POST', `/v1/test_helpers/invoices/${invoices.items[0].id}/pay`)
  await ok('POST', '/v1/subscriptions', { customerId: hostile.id, productId: monthly.id })
  return { meter, heavy, hostile }
}

/** Opens /dashboard in a fresh tab, enters the key and waits for the overview. */
async function openDashboard(page: Page): Promise<void> {
  const response = await page.goto(`${app.baseUrl}/dashboard`)
  expect(response?.status()).toBe(200)
  await page.fill('[data-testid="key-input"]', app.key)
  await page.click('[data-testid="key-form"] button[type="submit"]')
  await page.waitForSelector('#app[data-ready="true"] [data-testid="overview"]', { timeout: 30_000 })
}

async function text(page: Page, testId: string): Promise<string> {
  return (await page.textContent(`[data-testid="${testId}"]`))?.trim() ?? ''
}

async function rowIds(page: Page, testId: string): Promise<string[]> {
  return page.locator(`[data-testid="${testId}"] tbody tr`).evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') ?? ''))
}

describe('the dashboard page', () => {
  let seeded: Seeded
  beforeAll(async () => {
    seeded = await seed()
  }, 60_000)

  test('is served from this server with a self-only Content-Security-Policy', async () => {
    const page = await fetch(`${app.baseUrl}/dashboard`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const policy = page.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("connect-src 'self'")
    expect(policy).not.toContain('unsafe-inline')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await page.text()
    expect(html).not.toMatch(/https?:\/\//)
    const script = await fetch(`${app.baseUrl}/dashboard/dashboard.js`)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const source = await script.text()
    expect(source).toContain('/graphql')
    expect(source).not.toContain('innerHTML')
    expect((await fetch(`${app.baseUrl}/dashboard/dashboard.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect((await fetch(`${app.baseUrl}/dashboard/../package.json`)).status).toBe(404)
    expect((await fetch(`${app.baseUrl}/dashboard/main.ts`)).status).toBe(404)
  })

  test('shows the same figures as the API, the latest invoices and transactions, and a customer page', async () => {
    const range = chooseRange('30d')
    const api = await graphql(
      `query($from: DateTime!, $to: DateTime!, $meterId: ID!) {
        metrics(currency: USDC, from: $from, to: $to, bucket: day) {
          mrr arr revenue { amount } mrrSeries { amount } subscriptionsByStatus { status count }
          credits { liabilities debts } invoices { open openCount overdue overdueCount }
          usage(meterId: $meterId) { quantity }
          topCustomers(by: revenue, limit: 5) { customerId }
        }
        invoices(first: 10) { edges { node { id } } }
        transactions(first: 10) { edges { node { id } } }
      }`,
      { from: range.from, to: range.to, meterId: seeded.meter.id },
    )
    const metrics = api.metrics
    // What was seeded, to be sure the API's answer is not empty: 5 + 3 credits and one 10 fee.
    expect(metrics.revenue.map((point: { amount: string }) => point.amount).filter((amount: string) => amount !== '0.000000')).toEqual(['18.000000'])
    expect(metrics.mrr).toBe('10.000000')
    expect(metrics.mrrSeries.at(-1).amount).toBe('10.000000')

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const consoleErrors: string[] = []
    const foreignRequests: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    page.on('pageerror', (error) => consoleErrors.push(error.message))
    page.on('request', (request) => {
      if (!request.url().startsWith(app.baseUrl)) foreignRequests.push(request.url())
    })
    await openDashboard(page)

    expect(await text(page, 'mrr')).toBe(`${metrics.mrr} USDC`)
    expect(await text(page, 'arr')).toBe(`${metrics.arr} USDC`)
    expect(await text(page, 'revenue-total')).toBe('18.000000 USDC')
    expect(await text(page, 'credit-liabilities')).toBe(`${metrics.credits.liabilities} USDC`)
    expect(await text(page, 'credit-debts')).toBe(`${metrics.credits.debts} USDC`)
    expect(await text(page, 'open-invoices')).toBe(`${metrics.invoices.open} USDC`)
    expect(await text(page, 'overdue-invoices')).toBe(`${metrics.invoices.overdue} USDC`)
    for (const { status, count } of metrics.subscriptionsByStatus) expect(await text(page, `subscriptions-${status}`)).toBe(String(count))
    expect((await page.textContent(`[data-testid="usage-${seeded.meter.id}"] [data-testid="usage-total"]`))?.trim()).toBe('10')
    const bars = await page.locator(`[data-testid="usage-${seeded.meter.id}"] rect.bar`).evaluateAll((rects) => rects.map((rect) => rect.getAttribute('data-value')))
    expect(bars).toEqual(metrics.usage.map((point: { quantity: string }) => point.quantity))
    // MRR over time: one bar per bucket, each the API's exact figure.
    const mrrBars = await page.locator('[data-testid="mrr-series"] rect.bar').evaluateAll((rects) => rects.map((rect) => rect.getAttribute('data-value')))
    expect(mrrBars).toEqual(metrics.mrrSeries.map((point: { amount: string }) => point.amount))
    expect(await rowIds(page, 'latest-invoices')).toEqual(api.invoices.edges.map((edge: { node: { id: string } }) => edge.node.id))
    expect(await rowIds(page, 'latest-transactions')).toEqual(api.transactions.edges.map((edge: { node: { id: string } }) => edge.node.id))
    expect(await rowIds(page, 'top-customers')).toEqual(metrics.topCustomers.map((entry: { customerId: string }) => entry.customerId))

    // Customer names are data: the hostile one is shown as its characters, and nothing ran.
    expect(await page.locator('[data-testid="customers"]').textContent()).toContain(hostileName)
    expect(await page.locator('#app img').count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined()
    await page.screenshot({ path: path.join(screenshots, 'overview-desktop.png'), fullPage: true })

    // The customer page, reached by its link.
    await page.click(`[data-testid="customers"] tr[data-id="${seeded.heavy.id}"] a`)
    await page.waitForSelector('#app[data-ready="true"] [data-testid="customer-page"]')
    const customerApi = await graphql(
      `query($id: ID!) { customer(id: $id) {
        creditBalances { currency balance }
        subscriptions(first: 20) { edges { node { id } } }
        creditLedger(first: 20) { edges { node { id } } }
        invoices(first: 20) { edges { node { id } } }
        transactions(first: 20) { edges { node { id } } }
      } }`,
      { id: seeded.heavy.id },
    )
    const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((edge) => edge.node.id)
    expect(await text(page, 'customer-name')).toBe('Heavy user')
    expect(await text(page, 'customer-email')).toBe('heavy@example.com')
    expect(customerApi.customer.creditBalances).toEqual([{ currency: 'USDC', balance: '4.400000' }])
    expect(await text(page, 'balance-USDC')).toBe('4.400000 USDC')
    expect(await rowIds(page, 'customer-subscriptions')).toEqual(ids(customerApi.customer.subscriptions))
    expect(await rowIds(page, 'customer-ledger')).toEqual(ids(customerApi.customer.creditLedger))
    expect(await rowIds(page, 'customer-ledger')).toHaveLength(4)
    expect(await rowIds(page, 'customer-invoices')).toEqual(ids(customerApi.customer.invoices))
    expect(await rowIds(page, 'customer-transactions')).toEqual(ids(customerApi.customer.transactions))
    expect((await page.textContent(`[data-testid="customer-usage-${seeded.meter.id}"] [data-testid="customer-usage-total"]`))?.trim()).toBe('6')
    await page.screenshot({ path: path.join(screenshots, 'customer-desktop.png'), fullPage: true })

    // The hostile customer's page shows its name as text too.
    await page.goto(`${app.baseUrl}/dashboard#/customers/${seeded.hostile.id}`)
    await page.waitForSelector('#app[data-ready="true"] [data-testid="customer-page"]')
    expect(await text(page, 'customer-name')).toBe(hostileName)
    expect(await page.locator('#app img').count()).toBe(0)

    // The key stays for the session: a reload needs no key.
    await page.reload()
    await page.waitForSelector('#app[data-ready="true"] [data-testid="customer-page"]')
    expect(consoleErrors).toEqual([])
    expect(foreignRequests).toEqual([])
    await page.close()
  }, 90_000)

  test('works at phone width', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
    await openDashboard(page)
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }))
    expect(widths.page).toBeLessThanOrEqual(widths.screen)
    const figure = await page.locator('[data-testid="mrr"]').boundingBox()
    expect(figure!.x + figure!.width).toBeLessThanOrEqual(375)
    await page.screenshot({ path: path.join(screenshots, 'overview-phone.png'), fullPage: true })
    await page.click(`[data-testid="customers"] tr[data-id="${seeded.heavy.id}"] a`)
    await page.waitForSelector('#app[data-ready="true"] [data-testid="customer-page"]')
    const customerWidths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }))
    expect(customerWidths.page).toBeLessThanOrEqual(customerWidths.screen)
    await page.screenshot({ path: path.join(screenshots, 'customer-phone.png'), fullPage: true })
    console.log(`dashboard screenshots: ${screenshots}`)
    await page.close()
  }, 60_000)

  test('a refused key is asked for again, and forgetting the key asks for it', async () => {
    const page = await browser.newPage()
    await page.goto(`${app.baseUrl}/dashboard`)
    await page.fill('[data-testid="key-input"]', 'bk_test_notakey')
    await page.click('[data-testid="key-form"] button[type="submit"]')
    await expect.poll(() => page.locator('[data-testid="key-form"] [role="alert"]').count()).toBe(1)
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)

    const writer = await app.createKey({ scopes: ['usage:write'] })
    await page.fill('[data-testid="key-input"]', writer)
    await page.click('[data-testid="key-form"] button[type="submit"]')
    await expect.poll(() => page.locator('[data-testid="key-form"] [role="alert"]').textContent()).toContain('refused')

    await page.fill('[data-testid="key-input"]', app.key)
    await page.click('[data-testid="key-form"] button[type="submit"]')
    await page.waitForSelector('#app[data-ready="true"] [data-testid="overview"]')
    await page.click('[data-testid="sign-out"]')
    await page.waitForSelector('[data-testid="key-form"]')
    expect(await page.evaluate(() => sessionStorage.getItem('billing-dashboard-key'))).toBeNull()
    await page.close()
  }, 60_000)
})
