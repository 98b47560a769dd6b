import { createHmac, timingSafeEqual } from 'node:crypto'
import { formatAmount, type Currency } from '../domain/money'

// Links a customer opens to pay. A checkout session's page is addressed by its id (unguessable, like
// every id here). A top-up link, handed out by a denied access check, is signed: opening it creates a
// credits checkout session for exactly what it names, so it must not be forgeable or editable.

export function checkoutUrl(publicUrl: string, sessionId: string): string {
  return `${publicUrl}/checkout/${sessionId}`
}

export interface TopUp {
  accountId: string
  customerId: string
  currency: Currency
  amount: string
}

function signTopUp(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(`top-up\n${payload}`).digest().subarray(0, 18).toString('base64url')
}

export function topUpUrl(publicUrl: string, secret: Buffer, topUp: TopUp): string {
  const payload = Buffer.from(JSON.stringify([topUp.accountId, topUp.customerId, topUp.currency, formatAmount(topUp.amount, topUp.currency)])).toString('base64url')
  return `${publicUrl}/checkout/top-up/${payload}.${signTopUp(secret, payload)}`
}

export function readTopUpToken(secret: Buffer, token: string): TopUp | undefined {
  const [payload, signature, extra] = token.split('.')
  if (!payload || !signature || extra !== undefined) return undefined
  const expected = Buffer.from(signTopUp(secret, payload), 'base64url')
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  try {
    const [accountId, customerId, currency, amount] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as string[]
    if (!accountId || !customerId || (currency !== 'BRL' && currency !== 'USDC') || !amount) return undefined
    return { accountId, customerId, currency, amount }
  } catch {
    return undefined
  }
}
