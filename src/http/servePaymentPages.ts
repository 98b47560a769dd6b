import { effectiveStatus } from '../checkout/checkoutRules'
import { findCheckoutSessionForPayer, type PayerView } from '../checkout/findCheckoutSessionForPayer'
import { readTopUpToken } from '../checkout/paymentLinks'
import { payCheckoutSession } from '../checkout/payCheckoutSession'
import { startTopUp } from '../checkout/startTopUp'
import type { Services } from '../Services'
import { DomainError } from '../domain/DomainError'
import { accountClock, contextForAccount } from '../domain/DomainContext'
import { formatAmount } from '../domain/money'
import type { Account, Invoice } from '../generated/prisma/client'
import { findInvoiceForPayer } from '../invoices/findInvoiceForPayer'
import { settleInvoicePayment } from '../invoices/settleInvoicePayment'
import { readUsdcPageInstructions } from '../payments/usdc/readUsdcPageInstructions'
import { renderPaymentPage, type Payable } from './renderPaymentPage'

export interface PageResponse {
  status: number
  headers: Record<string, string>
  html: string
}

const pageHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
}

/**
 * The pages a payer opens, addressed by unguessable ids: /checkout/{id} and /invoices/{id} (GET the
 * page; POST …/pay on test accounts settles it), and /checkout/top-up/{signed token}.
 */
export async function servePaymentPages(services: Services, method: string, pathname: string): Promise<PageResponse | undefined> {
  const db = services.database.prisma
  const topUp = /^\/checkout\/top-up\/([^/]+)$/.exec(pathname)
  if (topUp && method === 'GET') {
    const token = readTopUpToken(services.signingSecret, decodeSegment(topUp[1]!))
    const account = token ? await db.account.findUnique({ where: { id: token.accountId } }) : null
    if (!token || !account) return notFound()
    const session = await startTopUp(contextForAccount(db, account), token)
    if (!session) return { status: 410, headers: pageHeaders, html: '<!doctype html><title>Link expired</title><p>This payment link has expired.</p>' }
    return redirect(`/checkout/${session.id}`)
  }

  const page = /^\/(checkout|invoices)\/([A-Za-z0-9_]+)(\/pay)?$/.exec(pathname)
  if (!page) return undefined
  const [, kind, id, pay] = page as unknown as [string, 'checkout' | 'invoices', string, string | undefined]
  const load = async () => {
    const found = kind === 'checkout' ? checkoutPayable(await findCheckoutSessionForPayer(db, id)) : invoicePayable(await findInvoiceForPayer(db, id))
    if (found && found.payable.currency === 'USDC') found.payable.usdc = await readUsdcPageInstructions(db, kind, id)
    return found
  }
  const found = await load()
  if (!found) return notFound()
  if (!pay && method === 'GET') return { status: 200, headers: pageHeaders, html: await renderPaymentPage(found.payable, services.paymentRails) }
  if (pay && method === 'POST' && found.account.mode === 'test') {
    const context = contextForAccount(db, found.account)
    try {
      if (kind === 'checkout') {
        const paid = await payCheckoutSession(context, id)
        // Paid and committed: whatever successUrl holds, the answer is a redirect, never an error.
        return redirect(safeLocation(paid.successUrl) ?? `/checkout/${id}`)
      }
      await settleInvoicePayment(context, id, 'succeeded')
      return redirect(`/invoices/${id}`)
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid_state') throw error
      const fresh = (await load())!
      return { status: 409, headers: pageHeaders, html: await renderPaymentPage(fresh.payable, services.paymentRails, error.message) }
    }
  }
  return notFound()
}

function checkoutPayable(view: PayerView | null): { payable: Payable; account: Account } | null {
  if (!view) return null
  const { session, account, product } = view
  const amount = formatAmount(session.amount, session.currency)
  return {
    account,
    payable: {
      title: session.mode === 'credits' ? `${amount} ${session.currency} of credits` : (product?.name ?? 'Purchase'),
      amount,
      currency: session.currency,
      reference: session.id,
      state: effectiveStatus(session, accountClock({ clockOffsetMs: Number(account.clockOffsetMs) }).now()),
      testMode: account.mode === 'test',
      payAction: `/checkout/${session.id}/pay`,
    },
  }
}

function invoicePayable(view: { invoice: Invoice; account: Account } | null): { payable: Payable; account: Account } | null {
  if (!view) return null
  const { invoice, account } = view
  return {
    account,
    payable: {
      title: `Invoice ${invoice.id}`,
      amount: formatAmount(invoice.amountDue, invoice.currency),
      currency: invoice.currency,
      reference: invoice.id,
      state: invoice.status,
      testMode: account.mode === 'test',
      payAction: `/invoices/${invoice.id}/pay`,
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

function redirect(location: string): PageResponse {
  return { status: 303, headers: { ...pageHeaders, Location: location }, html: '' }
}

function notFound(): PageResponse {
  return { status: 404, headers: pageHeaders, html: '<!doctype html><title>Not found</title><p>There is nothing to pay here.</p>' }
}
