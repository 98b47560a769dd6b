import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { formatAmount, type Currency } from '../domain/money'

// Links a customer opens to pay. A checkout session's page is addressed by its id (unguessable, like
// every id here). A top-up link, handed out by a denied access check, is signed: opening it creates a
// credits checkout session for exactly what it names, so it must not be forgeable or editable.

export function checkoutUrl(publicUrl: string, sessionId: string): string {
  return `${publicUrl}/checkout/${sessionId}`
}

/** How long a top-up link can be opened (on the account's clock); the session it opens has its own expiry. */
export const topUpLinkLifetimeMilliseconds = 24 * 60 * 60 * 1000

export interface TopUp {
  accountId: string
  customerId: string
  currency: Currency
  amount: string
  /** After this, opening the link creates nothing. */
  expiresAt: Date
}

export interface OpenedTopUp extends TopUp {
  /** Names this one link (a hash of its signed token): opening it creates at most one checkout session, ever. */
  linkId: string
}

function signTopUp(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(`top-up\n${payload}`).digest().subarray(0, 18).toString('base64url')
}

export function topUpUrl(publicUrl: string, secret: Buffer, topUp: TopUp): string {
  const fields = [topUp.accountId, topUp.customerId, topUp.currency, formatAmount(topUp.amount, topUp.currency), Math.floor(topUp.expiresAt.getTime() / 1000)]
  const payload = Buffer.from(JSON.stringify(fields)).toString('base64url')
  return `${publicUrl}/checkout/top-up/${payload}.${signTopUp(secret, payload)}`
}

export function readTopUpToken(secret: Buffer, token: string): OpenedTopUp | undefined {
  const [payload, signature, extra] = token.split('.')
  if (!payload || !signature || extra !== undefined) return undefined
  const expected = Buffer.from(signTopUp(secret, payload), 'base64url')
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  try {
    const [accountId, customerId, currency, amount, expiresAtSeconds] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[]
    if (typeof accountId !== 'string' || typeof customerId !== 'string' || (currency !== 'BRL' && currency !== 'USDC') || typeof amount !== 'string') return undefined
    // Links signed before they carried an expiry are no longer honoured.
    if (typeof expiresAtSeconds !== 'number' || !Number.isSafeInteger(expiresAtSeconds)) return undefined
    const linkId = createHash('sha256').update(`${payload}.${signature}`).digest().subarray(0, 16).toString('hex')
    return { accountId, customerId, currency, amount, expiresAt: new Date(expiresAtSeconds * 1000), linkId }
  } catch {
    return undefined
  }
}
