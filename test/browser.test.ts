import { randomUUID } from 'node:crypto'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { crc16Ccitt } from '../src/checkout/buildPixPayload'
import { launchBrowser } from './support/launchBrowser'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// As a person would: the hosted payment page and GraphiQL, in a real headless Chromium.

let app: TestApplication
let browser: Browser
beforeAll(async () => {
  app = await startTestApplication()
  browser = await launchBrowser()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300)
  return response.body.data
}

describe('in a browser', () => {
  test('a denied customer opens the payment link, pays on the hosted page, and is allowed', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Browser buyer' })
    const meter = await ok('POST', '/v1/usage/meters', { name: 'Renders', aggregation: 'sum', unit: 'run', resetPeriod: 'never' })
    await ok('POST', '/v1/products', { name: 'Renders', type: 'metered', defaultPrice: { amount: '0.5', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
    const denied = await ok('POST', '/v1/access/check', { customerId: customer.id, meterId: meter.id, quantity: 3 })
    expect(denied).toMatchObject({ allowed: false, reason: 'insufficient_credits' })

    const page = await browser.newPage()
    await page.goto(`${app.baseUrl}${new URL(denied.paymentUrl).pathname}`)
    await expect.poll(() => page.textContent('[data-testid="amount"]')).toBe('1.500000 USDC')
    expect(await page.textContent('[data-testid="usdc-address"]')).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(await page.getAttribute('[data-testid="status"]', 'data-status')).toBe('open')
    await page.click('[data-testid="sandbox-pay"]')
    await page.waitForSelector('[data-status="paid"]')
    await page.close()

    expect((await ok('GET', `/v1/customers/${customer.id}/credits`)).balance).toBe('1.500000')
    expect(await ok('POST', '/v1/access/check', { customerId: customer.id, meterId: meter.id, quantity: 3 })).toMatchObject({ allowed: true })
  }, 60_000)

  test('a BRL checkout shows a PIX copia-e-cola with a valid CRC and its QR code', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Cliente' })
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '29.9', currency: 'BRL' })
    const page = await browser.newPage()
    await page.goto(`${app.baseUrl}${new URL(session.url).pathname}`)
    const payload = (await page.inputValue('[data-testid="pix-payload"]')).trim()
    expect(payload.startsWith('000201')).toBe(true)
    expect(payload).toContain('0014br.gov.bcb.pix')
    expect(payload).toContain('540529.90')
    expect(payload).toContain('5303986')
    expect(payload.slice(-4)).toBe(crc16Ccitt(payload.slice(0, -4)))
    expect(await page.locator('.qr svg').count()).toBe(1)
    await page.close()
  }, 60_000)

  test('GraphiQL loads from this server and runs an authenticated query', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Seen in GraphiQL' })
    const page = await browser.newPage()
    const failures: string[] = []
    page.on('requestfailed', (request) => failures.push(request.url()))
    await page.goto(`${app.baseUrl}/graphql`)
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 })
    // The query editor, the headers editor, then the run button. The editors auto-close brackets, so
    // whatever they add after the cursor is deleted.
    const replaceText = async (editor: string, text: string) => {
      await page.locator(editor).click()
      await page.keyboard.press('Control+A')
      await page.keyboard.insertText(text)
      await page.keyboard.press('Shift+Control+End')
      await page.keyboard.press('Delete')
    }
    await replaceText('.graphiql-query-editor .monaco-editor', '{ customers(first: 5) { edges { node { id name } } } }')
    await page.getByText('Headers', { exact: true }).click()
    await replaceText('.graphiql-editor-tool .monaco-editor:visible', JSON.stringify({ Authorization: `Bearer ${app.key}` }))
    await page.locator('.graphiql-execute-button').click()
    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 20_000 }).toContain(customer.id).catch(async (error: unknown) => {
      await page.screenshot({ path: 'graphiql-failure.png' })
      throw error
    })
    expect(failures).toEqual([])

    // The schema loads (the standard introspection query passes the limits): the documentation explorer
    // finds a type and shows its fields.
    await page.locator('[aria-label="Show Documentation Explorer"]').click()
    const search = page.locator('.graphiql-doc-explorer-search-input input, .graphiql-doc-explorer-search input').first()
    await search.click()
    await search.fill('Subscription')
    await page.locator('.graphiql-doc-explorer-search [role="option"]', { hasText: /^Subscription$/ }).first().click()
    await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 20_000 }).toContain('currentPeriodEnd').catch(async (error: unknown) => {
      await page.screenshot({ path: 'graphiql-failure.png' })
      throw error
    })
    expect(await page.locator('.graphiql-doc-explorer-title').innerText()).toBe('Subscription')
    expect(await page.getByText('Error fetching schema').count()).toBe(0)
    await page.close()
  }, 90_000)
})
