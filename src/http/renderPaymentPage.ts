import QRCode from 'qrcode'
import { buildPixPayload } from '../checkout/buildPixPayload'
import type { Currency } from '../domain/money'
import type { PaymentRails } from '../Services'
import { buildUsdcPaymentLink, chainName } from '../payments/usdc/buildUsdcPaymentLink'
import type { UsdcInstructions } from '../payments/usdc/readUsdcPaymentInstructions'
import { escapeHtml } from './escapeHtml'

// The hosted payment page, for a checkout session or an invoice: what is bought, how much, and how to
// pay it. BRL is paid by PIX (the "copia e cola" BR Code and its QR code); USDC by a transfer to the
// address shown. On test accounts a button settles it as the rail would.

export interface Payable {
  title: string
  /** Already formatted with the currency's decimals. */
  amount: string
  currency: Currency
  /** What the payer's transfer refers to: the session or invoice id. */
  reference: string
  state: 'open' | 'paid' | 'expired' | 'canceled' | 'void' | 'uncollectible' | 'draft'
  testMode: boolean
  /** Where the sandbox button posts. */
  payAction: string
  /** USDC through the account's provider (CONTRACT §9.2): replaces the sandbox address. */
  usdc?: UsdcPageInstructions | undefined
}

export interface UsdcPageInstructions {
  instructions: UsdcInstructions
  /** usdc_pull: the signer the payer approves for later periods. */
  approveSpender?: string | null
}

const stateText: Record<Payable['state'], string> = {
  open: 'Waiting for payment',
  paid: 'Paid — thank you',
  expired: 'This checkout has expired',
  canceled: 'This checkout was canceled',
  void: 'This invoice was voided',
  uncollectible: 'This invoice is uncollectible',
  draft: 'This invoice is not final yet',
}

export async function renderPaymentPage(payable: Payable, rails: PaymentRails, notice?: string): Promise<string> {
  let instructions = ''
  if (payable.state === 'open') {
    if (payable.currency === 'BRL') {
      const payload = buildPixPayload({
        key: rails.pixKey,
        merchantName: rails.pixMerchantName,
        merchantCity: rails.pixMerchantCity,
        amount: payable.amount,
        transactionId: payable.reference,
      })
      const qr = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
      instructions = `<h2>Pay with PIX</h2>
        <div class="qr" aria-label="PIX QR code">${qr}</div>
        <label for="pix">PIX copia e cola</label>
        <textarea id="pix" readonly rows="4" data-testid="pix-payload">${escapeHtml(payload)}</textarea>`
    } else if (payable.usdc) {
      instructions = await renderUsdcInstructions(payable.usdc)
    } else {
      instructions = `<h2>Pay with USDC</h2>
        <p>Send exactly <strong data-testid="usdc-amount">${escapeHtml(payable.amount)} USDC</strong> on ${escapeHtml(rails.usdcNetwork)} to</p>
        <p><code data-testid="usdc-address">${escapeHtml(rails.usdcAddress)}</code></p>
        <p class="muted">Reference: ${escapeHtml(payable.reference)}</p>`
    }
    if (payable.testMode) {
      instructions += `<form method="post" action="${escapeHtml(payable.payAction)}">
        <button type="submit" data-testid="sandbox-pay">Pay (sandbox)</button>
        <p class="muted">Test account: this settles the payment as the payment rail would.</p>
      </form>`
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay — ${escapeHtml(payable.title)}</title>
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
  <p class="muted">${payable.testMode ? 'TEST MODE — no real money moves' : ''}</p>
  <h1 data-testid="what">${escapeHtml(payable.title)}</h1>
  <p class="amount" data-testid="amount">${escapeHtml(payable.amount)} ${escapeHtml(payable.currency)}</p>
  <p class="status" data-testid="status" data-status="${payable.state}">${escapeHtml(stateText[payable.state])}</p>
  ${notice ? `<p role="alert">${escapeHtml(notice)}</p>` : ''}
  ${instructions}
</body></html>`
}

async function renderUsdcInstructions({ instructions, approveSpender }: UsdcPageInstructions): Promise<string> {
  const network = escapeHtml(chainName(instructions.chainId))
  if (instructions.rail === 'usdc_pull') {
    return `<h2>Paid from your wallet</h2>
      <p>This invoice is collected from <code data-testid="usdc-payer">${escapeHtml(instructions.payer)}</code> on ${network}
      (token <code>${escapeHtml(instructions.token)}</code>); keep enough USDC there and the allowance in place.</p>`
  }
  const link = buildUsdcPaymentLink(instructions.token, instructions.chainId, instructions.address, instructions.amount)
  const qr = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  const approve = approveSpender
    ? `<h3>For the next periods</h3>
      <p>Later invoices are collected from the wallet that pays this one. Approve
      <code data-testid="usdc-spender">${escapeHtml(approveSpender)}</code> to spend USDC
      (token <code>${escapeHtml(instructions.token)}</code>) from it: <code>approve(spender, amount)</code>.</p>`
    : ''
  return `<h2>Pay with USDC</h2>
    <p>Send exactly <strong data-testid="usdc-amount">${escapeHtml(instructions.amount)} USDC</strong> on
    <span data-testid="usdc-network">${network}</span> to this address (it is for this payment only):</p>
    <p><code data-testid="usdc-address">${escapeHtml(instructions.address)}</code></p>
    <p class="muted">Token contract: <code data-testid="usdc-token">${escapeHtml(instructions.token)}</code>.
    Received so far (confirmed): <span data-testid="usdc-received">${escapeHtml(instructions.amountReceived)}</span> USDC.</p>
    <div class="qr" aria-label="USDC payment QR code">${qr}</div>
    <p><a href="${escapeHtml(link)}" data-testid="usdc-link">Open in a wallet</a></p>
    ${approve}`
}
