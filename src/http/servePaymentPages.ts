import { randomBytes } from 'node:crypto'
import { effectiveStatus } from '../checkout/checkoutRules'
import { findCheckoutSessionForPayer, type PayerView } from '../checkout/findCheckoutSessionForPayer'
import { readTopUpToken } from '../checkout/paymentLinks'
import { payCheckoutSession } from '../checkout/payCheckoutSession'
import { startTopUp } from '../checkout/startTopUp'
import type { Services } from '../Services'
import { DomainError } from '../domain/DomainError'
import { accountClock, contextForAccount } from '../domain/DomainContext'
import { formatAmount, type Decimal } from '../domain/money'
import type { Account, Invoice } from '../generated/prisma/client'
import { findInvoiceForPayer } from '../invoices/findInvoiceForPayer'
import { settleInvoicePayment } from '../invoices/settleInvoicePayment'
import { readUsdcPageInstructions } from '../payments/usdc/readUsdcPageInstructions'
import { readPixPageInstructions } from '../payments/pix/readPixPageInstructions'
import { choosePageLanguage, type PageLanguage } from './choosePageLanguage'
import { escapeHtml } from './escapeHtml'
import { maxPollSeconds } from './paymentPageScript'
import { formatPageAmount, paymentPageTexts, type PaymentPageTexts } from './paymentPageTexts'
import { renderPaymentPage, type Payable } from './renderPaymentPage'

export interface PageResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export interface PageRequest {
  method: string
  pathname: string
  acceptLanguage?: string | undefined
}

/** Each page's one inline script runs under a fresh nonce; nothing else may run or be fetched but its own status route. */
function pageHeaders(language: PageLanguage, nonce = ''): Record<string, string> {
  const script = nonce ? `script-src 'nonce-${nonce}'; connect-src 'self'; ` : ''
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; ${script}style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'Content-Language': language,
    Vary: 'Accept-Language',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  }
}

/**
 * The pages a payer opens, addressed by unguessable ids: /checkout/{id} and /invoices/{id} (GET the
 * page; GET …/status its status alone, which the open page polls; POST …/pay on test accounts settles
 * it), and /checkout/top-up/{signed token}. In Portuguese when the browser asks for it.
 */
export async function servePaymentPages(services: Services, request: PageRequest): Promise<PageResponse | undefined> {
  const { method, pathname } = request
  const language = choosePageLanguage(request.acceptLanguage)
  const texts = paymentPageTexts(language)
  const db = services.database.prisma
  const topUp = /^\/checkout\/top-up\/([^/]+)$/.exec(pathname)
  if (topUp && method === 'GET') {
    const token = readTopUpToken(services.signingSecret, decodeSegment(topUp[1]!))
    const account = token ? await db.account.findUnique({ where: { id: token.accountId } }) : null
    if (!token || !account) return notFound(language)
    const session = await startTopUp(contextForAccount(db, account), token)
    if (!session) return { status: 410, headers: pageHeaders(language), body: `<!doctype html><html lang="${language}"><title>${escapeHtml(texts.linkExpired)}</title><p>${escapeHtml(texts.linkExpired)}</p></html>` }
    return redirect(`/checkout/${session.id}`, language)
  }

  const page = /^\/(checkout|invoices)\/([A-Za-z0-9_]+)(\/pay|\/status)?$/.exec(pathname)
  if (!page) return undefined
  const [, kind, id, action] = page as unknown as [string, 'checkout' | 'invoices', string, '/pay' | '/status' | undefined]
  const load = async () => {
    const found = kind === 'checkout' ? checkoutPayable(await findCheckoutSessionForPayer(db, id), texts, language) : invoicePayable(await findInvoiceForPayer(db, id), texts)
    if (found && found.payable.state === 'open' && action !== '/status') {
      if (found.payable.currency === 'USDC') found.payable.usdc = await readUsdcPageInstructions(db, kind, id)
      if (found.payable.currency === 'BRL') found.payable.pix = await readPixPageInstructions(db, found.account.id, kind, id, found.amountDue)
      found.payable.pollSeconds = pollSeconds(found.payable, found.expiresAt, found.now)
    }
    return found
  }
  const render = async (found: FoundPayable, notice?: string) => {
    const nonce = randomBytes(16).toString('base64')
    return { headers: pageHeaders(language, nonce), body: await renderPaymentPage(found.payable, services.paymentRails, { language, nonce, notice }) }
  }
  const found = await load()
  if (!found) return notFound(language)
  if (action === '/status' && method === 'GET') {
    // The page's own status and nothing else: the id is the payer's capability, as for the page.
    return { status: 200, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }, body: JSON.stringify({ status: found.payable.state }) }
  }
  if (!action && method === 'GET') return { status: 200, ...(await render(found)) }
  if (action === '/pay' && method === 'POST' && found.account.mode === 'test') {
    const context = contextForAccount(db, found.account)
    try {
      if (kind === 'checkout') {
        const paid = await payCheckoutSession(context, id)
        // Paid and committed: whatever successUrl holds, the answer is a redirect, never an error.
        return redirect(safeLocation(paid.successUrl) ?? `/checkout/${id}`, language)
      }
      await settleInvoicePayment(context, id, 'succeeded')
      return redirect(`/invoices/${id}`, language)
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid_state') throw error
      return { status: 409, ...(await render((await load())!, error.message)) }
    }
  }
  return notFound(language)
}

interface FoundPayable {
  payable: Payable
  account: Account
  amountDue: Decimal
  /** When its instructions stop being payable, on the account's clock (null: no end). */
  expiresAt: Date | null
  now: Date
}

/** Until the charge expires (and a minute more, to show it expired), never longer than maxPollSeconds. */
function pollSeconds(payable: Payable, expiresAt: Date | null, now: Date): number {
  const chargeExpiry = payable.pix?.kind === 'charge' ? payable.pix.expiresAt : expiresAt
  if (!chargeExpiry) return maxPollSeconds
  return Math.min(maxPollSeconds, Math.max(0, (chargeExpiry.getTime() - now.getTime()) / 1000 + 60))
}

function checkoutPayable(view: PayerView | null, texts: PaymentPageTexts, language: PageLanguage): FoundPayable | null {
  if (!view) return null
  const { session, account, product } = view
  const amount = formatAmount(session.amount, session.currency)
  const now = accountClock({ clockOffsetMs: Number(account.clockOffsetMs) }).now()
  return {
    account,
    amountDue: session.amount,
    expiresAt: session.expiresAt,
    now,
    payable: {
      title: session.mode === 'credits' ? texts.creditsTitle(formatPageAmount(amount, session.currency, language)) : (product?.name ?? texts.purchase),
      amount,
      currency: session.currency,
      reference: session.id,
      state: effectiveStatus(session, now),
      testMode: account.mode === 'test',
      payAction: `/checkout/${session.id}/pay`,
      statusPath: `/checkout/${session.id}/status`,
      pollSeconds: 0,
      cancelUrl: safeLocation(session.cancelUrl),
      successUrl: safeLocation(session.successUrl),
    },
  }
}

function invoicePayable(view: { invoice: Invoice; account: Account } | null, texts: PaymentPageTexts): FoundPayable | null {
  if (!view) return null
  const { invoice, account } = view
  return {
    account,
    amountDue: invoice.amountDue,
    expiresAt: null,
    now: accountClock({ clockOffsetMs: Number(account.clockOffsetMs) }).now(),
    payable: {
      title: texts.invoiceTitle(invoice.id),
      amount: formatAmount(invoice.amountDue, invoice.currency),
      currency: invoice.currency,
      reference: invoice.id,
      state: invoice.status,
      testMode: account.mode === 'test',
      payAction: `/invoices/${invoice.id}/pay`,
      statusPath: `/invoices/${invoice.id}/status`,
      pollSeconds: 0,
    },
  }
}

/** A path segment as text; malformed percent-encoding names nothing here (the 404 page). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return ''
  }
}

/** The URL if it is a normalised http(s) URL, always a valid Location header (sessions stored before URLs were normalised may hold anything). */
function safeLocation(url: string | null): string | undefined {
  if (url === null) return undefined
  try {
    const parsed = new URL(url)
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.href === url && /^[\x21-\x7e]+$/.test(url) ? url : undefined
  } catch {
    return undefined
  }
}

function redirect(location: string, language: PageLanguage): PageResponse {
  return { status: 303, headers: { ...pageHeaders(language), Location: location }, body: '' }
}

function notFound(language: PageLanguage): PageResponse {
  const text = escapeHtml(paymentPageTexts(language).notFound)
  return { status: 404, headers: pageHeaders(language), body: `<!doctype html><html lang="${language}"><title>${text}</title><p>${text}</p></html>` }
}
