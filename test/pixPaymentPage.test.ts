import { randomUUID } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { choosePageLanguage } from '../src/http/choosePageLanguage'
import { runPixWork } from '../src/payments/pix/runPixWork'
import { launchBrowser } from './support/launchBrowser'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 10 item 8, as a payer would, in the headless Chromium the browser tests use: the hosted page
// of a BRL checkout (and of a pix_manual invoice) on a live account whose PSP is the simulator (a
// separate process) shows the charge's own dynamic code, its QR, a copy button and the expiry; the
// payer pays through the simulator's control, and the open page flips to paid by itself (no reload);
// Portuguese when the browser asks for it.

let app: TestApplication
let psp: PixSimulatorProcess
let browser: Browser
let liveKey: string

beforeAll(async () => {
  ;[app, psp, browser] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator(), launchBrowser()])
  liveKey = await app.createKey({ account: `pix-page-${randomUUID().slice(0, 8)}`, mode: 'live' })
  const configured = await app.graphql(
    `mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { webhookUrl } }`,
    { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey: 'loja@example.com.br' } },
    liveKey,
  )
  expect(configured.body.errors).toBeUndefined()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await app?.close()
  await psp?.stop()
})

async function ok(method: string, path: string, body?: unknown) {
  const response = await app.request(method, path, { key: liveKey, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

async function brlSession(amount: string) {
  const customer = await ok('POST', '/v1/customers', { name: 'Pagadora' })
  return ok('POST', '/v1/checkout/sessions', {
    mode: 'credits',
    customerId: customer.id,
    amount,
    currency: 'BRL',
    successUrl: 'https://loja.example.com.br/obrigado?x="<b>',
    cancelUrl: 'https://loja.example.com.br/carrinho?a=1&b=<script>',
  })
}

/** Marks the document: a reload or navigation would lose the mark. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { notReloaded: true }))
}
async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true)
}

describe('the payer\'s PIX page', () => {
  test('shows the charge\'s dynamic code, copies it, and flips to paid by itself when the PSP confirms', async () => {
    const session = await brlSession('49.90')
    const context = await browser.newContext({ locale: 'en-US' })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl })
    const page = await context.newPage()
    const scriptErrors: string[] = []
    page.on('pageerror', (error) => scriptErrors.push(error.message))
    page.on('console', (message) => message.type() === 'error' && scriptErrors.push(message.text()))
    const response = await page.goto(`${app.baseUrl}/checkout/${session.id}`)
    expect(response?.headers()['content-language']).toBe('en')
    expect(await page.getAttribute('html', 'lang')).toBe('en')

    // The code is the PSP's (the cob's pixCopiaECola), not the static BR Code of the sandbox.
    const code = (await page.inputValue('[data-testid="pix-payload"]')).trim()
    expect(code).toBe(session.payment.pixCopiaECola)
    const cob = (await psp.control('GET', '/state')).cobs.find((candidate: { txid: string }) => candidate.txid === session.payment.txid)
    expect(code).toBe(cob.pixCopiaECola)
    expect(code).toContain(cob.location)
    expect(await page.locator('.qr svg').count()).toBe(1)
    expect(await page.textContent('[data-testid="amount"]')).toBe('49.90 BRL')
    expect(await page.getAttribute('[data-testid="pix-expires"] time', 'datetime')).toBe(new Date(session.payment.expiresAt).toISOString())
    expect(await page.textContent('[data-testid="pix-expires"]')).toMatch(/^Pay by .+ UTC\.$/)
    expect(await page.locator('[data-testid="sandbox-pay"]').count()).toBe(0)
    // The merchant's URLs, escaped into attributes (not markup).
    expect(await page.getAttribute('[data-testid="cancel-link"]', 'href')).toBe('https://loja.example.com.br/carrinho?a=1&b=%3Cscript%3E')
    expect(await page.locator('script').count()).toBe(1)

    await page.click('[data-testid="pix-copy"]')
    await expect.poll(() => page.textContent('[data-testid="pix-copy"]')).toBe('Copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code)

    await markDocument(page)
    await psp.control('POST', `/cob/${session.payment.txid}/pay`)
    await page.waitForSelector('[data-testid="status"][data-status="paid"]', { timeout: 30_000 })
    expect(await stillSameDocument(page)).toBe(true)
    expect(await page.textContent('[data-testid="status"]')).toBe('Paid — thank you')
    expect(await page.isVisible('[data-testid="pix-payload"]')).toBe(false)
    expect(await page.isVisible('[data-testid="cancel-link"]')).toBe(false)
    expect(await page.getAttribute('[data-testid="success-link"]', 'href')).toBe('https://loja.example.com.br/obrigado?x=%22%3Cb%3E')
    expect(await page.isVisible('[data-testid="success-link"]')).toBe(true)
    expect(scriptErrors).toEqual([])
    await context.close()
    expect((await ok('GET', `/v1/checkout/sessions/${session.id}`)).status).toBe('paid')
  }, 90_000)

  test('in Portuguese when the browser asks for it: R$ 49,90, Brasília time, and the same flip', async () => {
    const session = await brlSession('49.90')
    const context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 520, height: 1100 } })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/checkout/${session.id}`)
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR')
    expect((await page.textContent('[data-testid="amount"]'))?.replace(/\u00a0/g, ' ')).toBe('R$ 49,90')
    expect((await page.textContent('[data-testid="what"]'))?.replace(/\u00a0/g, ' ')).toBe('R$ 49,90 em créditos')
    expect(await page.textContent('[data-testid="status"]')).toBe('Aguardando pagamento')
    expect(await page.textContent('[data-testid="pix-expires"]')).toMatch(/^Pague até \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} \(horário de Brasília\)\.$/)
    expect(await page.textContent('[data-testid="pix-copy"]')).toBe('Copiar código')
    expect(await page.textContent('[data-testid="cancel-link"]')).toBe('Cancelar e voltar')
    expect((await page.inputValue('[data-testid="pix-payload"]')).trim()).toBe(session.payment.pixCopiaECola)
    await page.screenshot({ path: `${process.env.PIX_PAGE_SCREENSHOTS ?? '/tmp'}/pix-page-pt-BR-open.png`, fullPage: true })

    // An underpayment (a payer's bank breaking the cob's fixed amount, which the simulator does only
    // when told) shows what arrived once the page is loaded again; the rest flips it to paid.
    await psp.control('POST', `/cob/${session.payment.txid}/pay`, { amount: '9.90', nonconforming: true })
    await expect.poll(async () => (await ok('GET', `/v1/checkout/sessions/${session.id}`)).payment.amountReceived, { timeout: 20_000 }).toBe('9.90')
    await page.reload()
    expect((await page.textContent('[data-testid="pix-received"]'))?.replace(/\u00a0/g, ' ')).toBe('Recebido até agora: R$ 9,90, menos do que o valor devido; fale com o vendedor sobre o restante.')
    expect(await page.getAttribute('[data-testid="status"]', 'data-status')).toBe('open')
    await markDocument(page)
    await psp.control('POST', `/cob/${session.payment.txid}/pay`, { amount: '40.00', nonconforming: true })
    await page.waitForSelector('[data-testid="status"][data-status="paid"]', { timeout: 30_000 })
    expect(await stillSameDocument(page)).toBe(true)
    expect(await page.textContent('[data-testid="status"]')).toBe('Pago — obrigado')
    await page.screenshot({ path: `${process.env.PIX_PAGE_SCREENSHOTS ?? '/tmp'}/pix-page-pt-BR-paid.png`, fullPage: true })
    await context.close()
  }, 90_000)

  test('a pix_manual invoice\'s page shows its charge and flips to paid by itself', async () => {
    const customer = await ok('POST', '/v1/customers', { name: 'Assinante' })
    const plan = await ok('POST', '/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '19.90', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const subscription = await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' })
    const invoice = (await ok('GET', '/v1/invoices?limit=100')).items.find((candidate: { subscriptionId: string }) => candidate.subscriptionId === subscription.id)
    const context = await browser.newContext({ locale: 'pt-BR' })
    const page = await context.newPage()
    // Until the background worker has made the charge, the page says so and refreshes itself.
    await page.goto(`${app.baseUrl}/invoices/${invoice.id}`)
    expect(await page.isVisible('[data-testid="pix-preparing"]')).toBe(true)
    await runPixWork(app.application.services.database.prisma)
    const charged = await ok('GET', `/v1/invoices/${invoice.id}`)
    expect(charged.payment).toMatchObject({ rail: 'pix', amountReceived: '0.00' })
    await page.waitForSelector('[data-testid="pix-payload"]', { timeout: 30_000 })
    expect((await page.inputValue('[data-testid="pix-payload"]')).trim()).toBe(charged.payment.pixCopiaECola)
    expect(await page.textContent('[data-testid="what"]')).toBe(`Fatura ${invoice.id}`)
    await markDocument(page)
    await psp.control('POST', `/cob/${charged.payment.txid}/pay`)
    await page.waitForSelector('[data-testid="status"][data-status="paid"]', { timeout: 30_000 })
    expect(await stillSameDocument(page)).toBe(true)
    await context.close()
  }, 90_000)
})

describe('without a browser', () => {
  test('the status route says the status and nothing else, with no key; unknown ids are 404', async () => {
    const session = await brlSession('5.00')
    const status = await fetch(`${app.baseUrl}/checkout/${session.id}/status`)
    expect(status.status).toBe(200)
    expect(status.headers.get('cache-control')).toBe('no-store')
    expect(await status.json()).toEqual({ status: 'open' })
    expect((await fetch(`${app.baseUrl}/checkout/cs_${'x'.repeat(20)}/status`)).status).toBe(404)
    expect((await fetch(`${app.baseUrl}/checkout/${session.id}/status`, { method: 'POST' })).status).toBe(404)
    // A live account's page never offers the sandbox's settle button, and posting to it settles nothing.
    expect((await fetch(`${app.baseUrl}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(404)
    expect(await (await fetch(`${app.baseUrl}/checkout/${session.id}/status`)).json()).toEqual({ status: 'open' })
  })

  test('the page speaks the language the browser ranks highest, English otherwise; its one script runs under a nonce', async () => {
    const session = await brlSession('1234.50')
    const page = async (acceptLanguage?: string) => {
      const response = await fetch(`${app.baseUrl}/checkout/${session.id}`, { headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {} })
      return { html: await response.text(), headers: response.headers }
    }
    const portuguese = await page('pt-BR,pt;q=0.9,en;q=0.8')
    expect(portuguese.html).toContain('R$\u00a01.234,50')
    expect(portuguese.headers.get('vary')).toBe('Accept-Language')
    const nonce = /script-src 'nonce-([^']+)'/.exec(portuguese.headers.get('content-security-policy')!)![1]
    expect(portuguese.html).toContain(`<script nonce="${nonce}">`)
    expect((await page('en-US,en;q=0.9,pt;q=0.5')).html).toContain('1234.50 BRL')
    expect((await page()).html).toContain('1234.50 BRL')
    expect((await page('de-DE')).html).toContain('<html lang="en">')
    expect(choosePageLanguage('pt-PT;q=0.4, en;q=0.3')).toBe('pt-BR')
    expect(choosePageLanguage('en;q=0.5, pt;q=0.5')).toBe('en')
    expect(choosePageLanguage('*;q=1, pt-br;q=bad')).toBe('en')
  })
})
