import { randomBytes } from 'node:crypto'

// Ids are a type prefix and 24 random base62 characters (~143 bits): unguessable, so that an id
// reveals nothing about other accounts, and typed, so that a Relay node id can be the same string.

export const idPrefixes = {
  Account: 'acct',
  ApiKey: 'key',
  Customer: 'cus',
  IdempotencyRecord: 'idem',
  Product: 'prod',
  Price: 'price',
  Meter: 'mtr',
  UsageEvent: 'evt',
  CreditLedgerEntry: 'cle',
  CheckoutSession: 'cs',
  Transaction: 'txn',
  Entitlement: 'ent',
  Subscription: 'sub',
  Invoice: 'in',
  InvoiceLine: 'il',
  UsdcDepositAddress: 'usdcaddr',
  UsdcTransfer: 'usdctr',
  UsdcSend: 'usdcsend',
  Refund: 're',
  Event: 'evt',
  WebhookEndpoint: 'we',
  WebhookDelivery: 'whd',
  WebhookAttempt: 'wha',
} as const

export type IdentifiedType = keyof typeof idPrefixes

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export function randomBase62(length: number): string {
  let text = ''
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && text.length < length) text += alphabet[byte % 62]
    }
  }
  return text
}

// Events share the `evt_` prefix the contract gives them with usage events, which had it first; an
// event's id is two characters longer, and that alone tells the two apart (typeOfId).
const eventIdLength = 26
const idLength = 24

export function createId(type: IdentifiedType): string {
  return `${idPrefixes[type]}_${randomBase62(type === 'Event' ? eventIdLength : idLength)}`
}

/** The type an id names by its prefix, or undefined for a string that is no id of ours. */
export function typeOfId(id: string): IdentifiedType | undefined {
  const prefix = id.slice(0, id.indexOf('_'))
  if (prefix === idPrefixes.Event && id.length === prefix.length + 1 + eventIdLength) return 'Event'
  for (const [type, candidate] of Object.entries(idPrefixes)) {
    if (candidate === prefix) return type as IdentifiedType
  }
  return undefined
}
