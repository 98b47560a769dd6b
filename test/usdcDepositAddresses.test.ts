import jsQR from 'jsqr'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deriveDepositAddress } from '../src/payments/usdc/deriveDepositAddress'
import { launchBrowser } from './support/launchBrowser'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { merchantXpub, startTestChain, type TestChain } from './support/testChain'
import { setUpUsdcMerchant, type UsdcMerchant } from './support/usdcMerchant'

// CONTRACT §9.2: every USDC payable gets its own deposit address (child 0/i of the merchant's xpub,
// never reused), shown in `payment` (REST, GraphQL) and on the hosted page with an EIP-681 QR code.

let app: TestApplication
let chain: TestChain
let token: string
let merchant: UsdcMerchant
let browser: Browser

/** The pixels of a PNG, decoded by the browser on a blank page. */
async function readPixels(png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const blank = await browser.newPage()
  try {
    const image = await blank.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
      const context = canvas.getContext('2d')!
      context.drawImage(bitmap, 0, 0)
      return { width: bitmap.width, height: bitmap.height, data: Array.from(context.getImageData(0, 0, bitmap.width, bitmap.height).data) }
    }, png.toString('base64'))
    return { width: image.width, height: image.height, data: Uint8ClampedArray.from(image.data) }
  } finally {
    await blank.close()
  }
}

beforeAll(async () => {
  ;[app, chain, browser] = await Promise.all([startTestApplication(), startTestChain(), launchBrowser()])
  token = await chain.deployToken()
  merchant = await setUpUsdcMerchant(app, chain, token)
})
afterAll(async () => {
  await browser.close()
  await app.close()
  await chain.stop()
})

describe('deposit addresses', () => {
  it('one per checkout session, derived in order from the xpub, in REST and GraphQL', async () => {
    const sessions = await Promise.all(
      ['1.5', '2', '0.000001'].map((amount) => merchant.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: merchant.customerId, amount, currency: 'USDC' })),
    )
    const addresses = sessions.map((session) => session.payment.address as string)
    expect(new Set(addresses).size).toBe(3)
    const expected = [0, 1, 2].map((index) => deriveDepositAddress(merchantXpub(), index))
    expect([...addresses].sort()).toEqual([...expected].sort())
    expect(sessions[0].payment).toEqual({ rail: 'usdc', chainId: 31337, token, address: sessions[0].payment.address, amount: '1.500000', amountReceived: '0.000000', approveSpender: null, approveAmount: null })
    const read = await merchant.ok('GET', `/v1/checkout/sessions/${sessions[1].id}`)
    expect(read.payment).toMatchObject({ address: sessions[1].payment.address, amount: '2.000000' })
    const graph = await app.graphql(`query($id: ID!) { checkoutSession(id: $id) { payment { __typename ... on UsdcPaymentInstructions { address amount } } } }`, { id: sessions[2].id })
    expect(graph.body.data.checkoutSession.payment).toEqual({ __typename: 'UsdcPaymentInstructions', address: sessions[2].payment.address, amount: '0.000001' })
  })

  it('an open usdc_invoice invoice gets its own address; BRL has no USDC payment', async () => {
    const plan = await merchant.ok('POST', '/v1/products', { name: 'Plan', type: 'subscription', defaultPrice: { amount: '10', currency: 'USDC', model: 'subscription', interval: 'month' } })
    await merchant.ok('POST', '/v1/subscriptions', { customerId: merchant.customerId, productId: plan.id, paymentMethod: 'usdc_invoice' })
    const invoices = await merchant.ok('GET', '/v1/invoices?limit=1')
    const invoice = await merchant.ok('GET', `/v1/invoices/${invoices.items[0].id}`)
    expect(invoice.payment).toMatchObject({ rail: 'usdc', amount: '10.000000', amountReceived: '0.000000' })
    const used = await app.application.services.database.prisma.usdcDepositAddress.findMany()
    expect(new Set(used.map((row) => row.address)).size).toBe(used.length)
    const brl = await merchant.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: merchant.customerId, amount: '5', currency: 'BRL' })
    expect(brl.payment).toBeNull()
  })

  it('the hosted page shows the address, exact amount, network and an EIP-681 link', async () => {
    const session = await merchant.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: merchant.customerId, amount: '12.34', currency: 'USDC' })
    const page = await (await fetch(`${app.baseUrl}/checkout/${session.id}`)).text()
    expect(page).toContain(`data-testid="usdc-address">${session.payment.address}<`)
    expect(page).toContain('12.340000 USDC')
    expect(page).toContain('chain id 31337')
    expect(page).toContain(`ethereum:${token}@31337/transfer?address=${session.payment.address}&amp;uint256=12340000`)
    expect(page).toContain('<svg')
  })

  it('the hosted page\'s QR code, as Chromium draws it, reads as the EIP-681 link of the deposit address and the exact amount in token units', async () => {
    const session = await merchant.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: merchant.customerId, amount: '7.000321', currency: 'USDC' })
    const page = await browser.newPage()
    try {
      await page.goto(`${app.baseUrl}/checkout/${session.id}`)
      const pixels = await readPixels(await page.locator('.qr svg').screenshot())
      const decoded = jsQR(pixels.data, pixels.width, pixels.height)
      expect(decoded?.data).toBe(`ethereum:${token}@31337/transfer?address=${session.payment.address}&uint256=7000321`)
    } finally {
      await page.close()
    }
  })

  it('the OpenAPI document describes payment as one of the rails\' shapes', async () => {
    const document = (await app.request('GET', '/v1/openapi.json')).body
    expect(JSON.stringify(document)).toContain('"payer"')
  })
})
