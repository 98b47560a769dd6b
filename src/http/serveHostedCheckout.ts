import { readTopUpToken } from '../checkout/paymentLinks'
import { findCheckoutSessionForPayer } from '../checkout/findCheckoutSessionForPayer'
import { payCheckoutSession } from '../checkout/payCheckoutSession'
import { startTopUp } from '../checkout/startTopUp'
import type { Services } from '../Services'
import { DomainError } from '../domain/DomainError'
import { systemClock, type DomainContext } from '../domain/DomainContext'
import { renderCheckoutPage } from './renderCheckoutPage'

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

/** /checkout/{id} (GET the page, POST …/pay on test accounts) and /checkout/top-up/{token}. */
export async function serveHostedCheckout(services: Services, method: string, pathname: string): Promise<PageResponse | undefined> {
  const topUp = /^\/checkout\/top-up\/([^/]+)$/.exec(pathname)
  if (topUp && method === 'GET') {
    const token = readTopUpToken(services.signingSecret, decodeURIComponent(topUp[1]!))
    if (!token) return notFound()
    const account = await services.database.prisma.account.findUnique({ where: { id: token.accountId } })
    if (!account) return notFound()
    const context: DomainContext = { db: services.database.prisma, clock: systemClock, account: { id: account.id, mode: account.mode } }
    const session = await startTopUp(context, token)
    return redirect(`/checkout/${session.id}`)
  }

  const page = /^\/checkout\/([A-Za-z0-9_]+)(\/pay)?$/.exec(pathname)
  if (!page) return undefined
  const [, sessionId, pay] = page as unknown as [string, string, string | undefined]
  const view = await findCheckoutSessionForPayer(services.database.prisma, sessionId)
  if (!view) return notFound()
  if (!pay && method === 'GET') {
    return { status: 200, headers: pageHeaders, html: await renderCheckoutPage(view, services.paymentRails, systemClock.now()) }
  }
  if (pay && method === 'POST' && view.account.mode === 'test') {
    const context: DomainContext = { db: services.database.prisma, clock: systemClock, account: { id: view.account.id, mode: view.account.mode } }
    try {
      const paid = await payCheckoutSession(context, sessionId)
      return redirect(paid.successUrl ?? `/checkout/${sessionId}`)
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid_state') throw error
      const fresh = (await findCheckoutSessionForPayer(services.database.prisma, sessionId))!
      return { status: 409, headers: pageHeaders, html: await renderCheckoutPage(fresh, services.paymentRails, systemClock.now(), error.message) }
    }
  }
  return notFound()
}

function redirect(location: string): PageResponse {
  return { status: 303, headers: { ...pageHeaders, Location: location }, html: '' }
}

function notFound(): PageResponse {
  return { status: 404, headers: pageHeaders, html: '<!doctype html><title>Not found</title><p>This checkout does not exist.</p>' }
}
