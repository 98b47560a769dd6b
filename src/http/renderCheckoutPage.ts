import QRCode from 'qrcode'
import { buildPixPayload } from '../checkout/buildPixPayload'
import type { PayerView } from '../checkout/findCheckoutSessionForPayer'
import { effectiveStatus } from '../checkout/checkoutRules'
import { formatAmount } from '../domain/money'
import type { PaymentRails } from '../Services'
import { escapeHtml } from './escapeHtml'

// The hosted payment page: what is bought, how much, and how to pay it. BRL is paid by PIX (the
// "copia e cola" BR Code and its QR code); USDC by a transfer to the address shown. On test accounts
// a button settles the session as the rail would.

export async function renderCheckoutPage(view: PayerView, rails: PaymentRails, now: Date, notice?: string): Promise<string> {
  const { session, account, product } = view
  const status = effectiveStatus(session, now)
  const amount = formatAmount(session.amount, session.currency)
  const what = session.mode === 'credits' ? `${amount} ${session.currency} of credits` : (product?.name ?? 'Purchase')
  let instructions = ''
  if (status === 'open') {
    if (session.currency === 'BRL') {
      const payload = buildPixPayload({
        key: rails.pixKey,
        merchantName: rails.pixMerchantName,
        merchantCity: rails.pixMerchantCity,
        amount,
        transactionId: session.id,
      })
      const qr = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
      instructions = `<h2>Pay with PIX</h2>
        <div class="qr" aria-label="PIX QR code">${qr}</div>
        <label for="pix">PIX copia e cola</label>
        <textarea id="pix" readonly rows="4" data-testid="pix-payload">${escapeHtml(payload)}</textarea>`
    } else {
      instructions = `<h2>Pay with USDC</h2>
        <p>Send exactly <strong data-testid="usdc-amount">${escapeHtml(amount)} USDC</strong> on ${escapeHtml(rails.usdcNetwork)} to</p>
        <p><code data-testid="usdc-address">${escapeHtml(rails.usdcAddress)}</code></p>
        <p class="muted">Reference: ${escapeHtml(session.id)}</p>`
    }
    if (account.mode === 'test') {
      instructions += `<form method="post" action="/checkout/${escapeHtml(session.id)}/pay">
        <button type="submit" data-testid="sandbox-pay">Pay (sandbox)</button>
        <p class="muted">Test account: this settles the payment as the payment rail would.</p>
      </form>`
    }
  }
  const statusText: Record<string, string> = {
    open: 'Waiting for payment',
    paid: 'Paid — thank you',
    expired: 'This checkout has expired',
    canceled: 'This checkout was canceled',
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout — ${escapeHtml(what)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
  .amount { font-size: 2rem; font-weight: 600; margin: .25rem 0; }
  .muted { color: #666; font-size: .9rem; }
  .qr svg { width: 14rem; height: 14rem; }
  textarea { width: 100%; font-family: monospace; }
  button { font-size: 1rem; padding: .6rem 1.2rem; border: 0; border-radius: .4rem; background: #0a7; color: white; cursor: pointer; }
  .status { padding: .5rem .75rem; border-radius: .4rem; background: #f2f2f2; }
</style></head>
<body>
  <p class="muted">${account.mode === 'test' ? 'TEST MODE — no real money moves' : ''}</p>
  <h1 data-testid="what">${escapeHtml(what)}</h1>
  <p class="amount" data-testid="amount">${escapeHtml(amount)} ${escapeHtml(session.currency)}</p>
  <p class="status" data-testid="status" data-status="${status}">${escapeHtml(statusText[status] ?? status)}</p>
  ${notice ? `<p role="alert">${escapeHtml(notice)}</p>` : ''}
  ${instructions}
</body></html>`
}
