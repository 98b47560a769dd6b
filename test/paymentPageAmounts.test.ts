import { expect, test } from 'vitest'
import { crc16Ccitt } from '../src/checkout/buildPixPayload'
import { renderPaymentPage, type Payable } from '../src/http/renderPaymentPage'
import { defaultPaymentRails } from '../src/Services'

// A usage invoice in BRL can add up to more than a BR Code's amount field (13 characters) holds: the
// page then says so instead of showing a code no bank would accept.

function invoice(amount: string): Payable {
  return {
    title: 'Usage',
    amount,
    currency: 'BRL',
    reference: 'in_0001',
    state: 'open',
    testMode: false,
    payAction: '/pay',
    statusPath: '/status',
    pollSeconds: 60,
  }
}

function brCodeOf(page: string): string | undefined {
  return /data-testid="pix-payload">([^<]*)</.exec(page)?.[1]
}

test('the largest amount a BR Code carries gets a valid code; one cent more gets none, in both languages', async () => {
  const largest = await renderPaymentPage(invoice('9999999999.99'), defaultPaymentRails, { language: 'en', nonce: 'n' })
  const code = brCodeOf(largest)!
  expect(code).toContain('54139999999999.99')
  expect(code.slice(-4)).toBe(crc16Ccitt(code.slice(0, -4)))

  for (const language of ['en', 'pt-BR'] as const) {
    const page = await renderPaymentPage(invoice('10000000000.00'), defaultPaymentRails, { language, nonce: 'n' })
    expect(brCodeOf(page)).toBeUndefined()
    expect(page).toContain('data-testid="pix-too-large"')
    expect(page).toContain(language === 'en' ? 'larger than one PIX payment can carry' : 'maior do que um PIX pode levar')
  }
})
