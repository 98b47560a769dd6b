import QRCode from 'qrcode'
import { buildPixPayload } from '../checkout/buildPixPayload'
import { fitsOnePixPayment, type Currency } from '../domain/money'
import type { PaymentRails } from '../Services'
import type { PixPageInstructions } from '../payments/pix/readPixPageInstructions'
import { buildUsdcPaymentLink, chainName } from '../payments/usdc/buildUsdcPaymentLink'
import { toTokenUnits } from '../payments/usdc/tokenUnits'
import type { UsdcPageInstructions } from '../payments/usdc/readUsdcPageInstructions'
import type { PageLanguage } from './choosePageLanguage'
import { escapeHtml } from './escapeHtml'
import { paymentPageScript } from './paymentPageScript'
import { formatPageAmount, formatPageTime, paymentPageTexts, type PayableState, type PaymentPageTexts } from './paymentPageTexts'

// The hosted payment page, for a checkout session or an invoice: what is bought, how much, and how to
// pay it, in the payer's language (pt-BR or English). BRL is paid by PIX: on an account with a PSP the
// charge's own dynamic code ("copia e cola") and its QR, with a copy button and the charge's expiry;
// on a test account without one, the sandbox's static BR Code. USDC is paid by a transfer to the
// address shown. While it is open the page watches its own status route and flips by itself when the
// payment lands. On test accounts a button settles it as the rail would. Everything interpolated is
// escaped.

export interface Payable {
  title: string
  /** Already formatted with the currency's decimals ("49.90"). */
  amount: string
  currency: Currency
  /** What the payer's transfer refers to: the session or invoice id. */
  reference: string
  state: PayableState
  testMode: boolean
  /** Where the sandbox button posts. */
  payAction: string
  /** The page's own status route (`{"status"}` only), which the page polls while open. */
  statusPath: string
  /** How long the page keeps polling (seconds). */
  pollSeconds: number
  /** Checkout sessions: the merchant's pages, already checked to be http(s) URLs. */
  cancelUrl?: string | undefined
  successUrl?: string | undefined
  /** PIX through the account's PSP (CONTRACT §9.1): replaces the sandbox's static BR Code. */
  pix?: PixPageInstructions | undefined
  /** USDC through the account's provider (CONTRACT §9.2): replaces the sandbox address. */
  usdc?: UsdcPageInstructions | undefined
}

export interface PageOptions {
  language: PageLanguage
  /** The CSP nonce that lets the page's one script run. */
  nonce: string
  notice?: string | undefined
}

export async function renderPaymentPage(payable: Payable, rails: PaymentRails, options: PageOptions): Promise<string> {
  const { language, nonce, notice } = options
  const texts = paymentPageTexts(language)
  const amount = formatPageAmount(payable.amount, payable.currency, language)
  let instructions = ''
  let refresh = ''
  if (payable.state === 'open') {
    if (payable.currency === 'BRL') {
      if (payable.pix?.kind === 'preparing') refresh = '<meta http-equiv="refresh" content="5">'
      instructions = await renderPixInstructions(payable, rails, texts, language)
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
        <button type="submit" data-testid="sandbox-pay">${escapeHtml(texts.sandboxPay)}</button>
        <p class="muted">${escapeHtml(texts.sandboxNote)}</p>
      </form>`
    }
    instructions += `<p class="muted" data-testid="watching">${escapeHtml(texts.watching)}</p>
      <p class="muted" data-testid="stopped-watching" hidden>${escapeHtml(texts.stoppedWatching)}</p>`
  }
  const open = payable.state === 'open'
  const links = [
    payable.cancelUrl ? `<p data-while-open ${open ? '' : 'hidden'}><a href="${escapeHtml(payable.cancelUrl)}" data-testid="cancel-link">${escapeHtml(texts.backToStore)}</a></p>` : '',
    payable.successUrl ? `<p data-when-paid ${payable.state === 'paid' ? '' : 'hidden'}><a href="${escapeHtml(payable.successUrl)}" data-testid="success-link">${escapeHtml(texts.continueToStore)}</a></p>` : '',
  ].join('\n  ')
  const watch = open
    ? ` data-status-url="${escapeHtml(payable.statusPath)}" data-poll-seconds="${Math.max(0, Math.floor(payable.pollSeconds))}" data-state-texts="${escapeHtml(JSON.stringify(texts.states))}"`
    : ''
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<title>${escapeHtml(texts.pageTitle(payable.title))}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
  .amount { font-size: 2rem; font-weight: 600; margin: .25rem 0; }
  .muted { color: #666; font-size: .9rem; }
  .qr svg { width: 14rem; height: 14rem; }
  textarea { width: 100%; font-family: monospace; }
  button { font-size: 1rem; padding: .6rem 1.2rem; border: 0; border-radius: .4rem; background: #0a7; color: white; cursor: pointer; }
  button.secondary { background: #245; }
  .status { padding: .5rem .75rem; border-radius: .4rem; background: #f2f2f2; }
  .status[data-status="paid"] { background: #dff5e8; color: #064; font-weight: 600; }
  [hidden] { display: none !important; }
</style></head>
<body>
<main${watch}>
  <p class="muted">${payable.testMode ? escapeHtml(texts.testMode) : ''}</p>
  <h1 data-testid="what">${escapeHtml(payable.title)}</h1>
  <p class="amount" data-testid="amount">${escapeHtml(amount)}</p>
  <p class="status" data-testid="status" data-status="${payable.state}" role="status" aria-live="polite">${escapeHtml(texts.states[payable.state])}</p>
  ${notice ? `<p role="alert">${escapeHtml(notice)}</p>` : ''}
  <section data-while-open>${instructions}</section>
  ${links}
</main>
<script nonce="${escapeHtml(nonce)}">${paymentPageScript}</script>
</body></html>`
}

async function renderPixInstructions(payable: Payable, rails: PaymentRails, texts: PaymentPageTexts, language: PageLanguage): Promise<string> {
  const pix = payable.pix
  if (pix?.kind === 'nothing') return ''
  if (pix?.kind === 'preparing') return `<h2>${escapeHtml(texts.payWithPix)}</h2><p data-testid="pix-preparing">${escapeHtml(texts.preparing)}</p>`
  // A usage invoice can add up to more than a BR Code's amount field holds: no code rather than an invalid one.
  if (pix?.kind !== 'charge' && !fitsOnePixPayment(payable.amount)) {
    return `<h2>${escapeHtml(texts.payWithPix)}</h2><p data-testid="pix-too-large">${escapeHtml(texts.tooLargeForPix)}</p>`
  }
  const code =
    pix?.kind === 'charge'
      ? pix.pixCopiaECola
      : buildPixPayload({ key: rails.pixKey, merchantName: rails.pixMerchantName, merchantCity: rails.pixMerchantCity, amount: payable.amount, transactionId: payable.reference })
  const qr = await QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  const expiry =
    pix?.kind === 'charge'
      ? `<p data-testid="pix-expires"><time datetime="${pix.expiresAt.toISOString()}">${escapeHtml(texts.expiresAt(formatPageTime(pix.expiresAt, language)))}</time></p>`
      : ''
  const received =
    pix?.kind === 'charge' && pix.amountReceived !== '0.00'
      ? `<p data-testid="pix-received">${escapeHtml(texts.received(formatPageAmount(pix.amountReceived, 'BRL', language)))}</p>`
      : ''
  return `<h2>${escapeHtml(texts.payWithPix)}</h2>
        <div class="qr" role="img" aria-label="${escapeHtml(texts.pixQr)}">${qr}</div>
        <label for="pix">${escapeHtml(texts.pixCode)}</label>
        <textarea id="pix" readonly rows="4" data-testid="pix-payload">${escapeHtml(code)}</textarea>
        <p><button type="button" class="secondary" data-testid="pix-copy" data-copy-from="pix" data-copied="${escapeHtml(texts.copied)}" data-copy-failed="${escapeHtml(texts.copyFailed)}" hidden>${escapeHtml(texts.copy)}</button></p>
        ${expiry}
        ${received}`
}

async function renderUsdcInstructions({ instructions }: UsdcPageInstructions): Promise<string> {
  const network = escapeHtml(chainName(instructions.chainId))
  const approve = instructions.approveSpender
    ? `<h3>${instructions.rail === 'usdc_pull' ? 'Allowance' : 'For the next periods'}</h3>
      <p>Later invoices are collected from the wallet that pays this one by <code>transferFrom</code>. From that
      wallet, call <code>approve(spender, amount)</code> on the token <code>${escapeHtml(instructions.token)}</code> with
      spender <code data-testid="usdc-spender">${escapeHtml(instructions.approveSpender)}</code> and an amount such as
      <code data-testid="usdc-approve-amount">${escapeHtml(toUnits(instructions.approveAmount ?? '0'))}</code>
      (${escapeHtml(instructions.approveAmount ?? '0')} USDC, twelve periods of this amount; any amount works,
      and each period needs its own amount available).</p>`
    : ''
  if (instructions.rail === 'usdc_pull') {
    return `<h2>Paid from your wallet</h2>
      <p>This invoice is collected from <code data-testid="usdc-payer">${escapeHtml(instructions.payer)}</code> on ${network}
      (token <code>${escapeHtml(instructions.token)}</code>); keep enough USDC there and the allowance in place.</p>
      ${approve}`
  }
  const link = buildUsdcPaymentLink(instructions.token, instructions.chainId, instructions.address, instructions.amount)
  const qr = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
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

/** The token's integer units, as `approve` takes them. */
function toUnits(amount: string): string {
  return toTokenUnits(amount).toString()
}
