import { Prisma } from '../generated/prisma/client'
import { DomainError } from './DomainError'

// Money is exact from the request to the database: decimal strings in, Prisma.Decimal (decimal.js)
// in between, numeric columns at rest, decimal strings out. A JS number never holds an amount.

export type Currency = 'BRL' | 'USDC'
export type Decimal = Prisma.Decimal

export const currencyDecimals: Record<Currency, number> = { BRL: 2, USDC: 6 }

// Amounts are stored as numeric(38,6): 32 digits before the point. A unit price of at most 15 digits
// times the largest quantity (10^12) is at most 10^27, which leaves room for sums of many of them, so
// no accepted price can overflow a usage cost (which would fail the shared batch it is recorded in).
const maxAmountIntegerDigits = 15
/** What an amount in a request looks like; the currency then bounds its decimals. */
export const amountPattern = /^\d+(\.\d+)?$/
export const maxAmountLength = 64

/** A decimal string in major units: not negative, below 10^15, at most the currency's decimals (CONTRACT §5). */
export function parseAmount(text: string, currency: Currency, param: string): Decimal {
  if (typeof text !== 'string' || text.length > maxAmountLength || !amountPattern.test(text)) {
    throw new DomainError('validation_error', `${param} must be a non-negative decimal string such as "29.90"`, { param })
  }
  if (text.split('.')[0]!.replace(/^0+(?=\d)/, '').length > maxAmountIntegerDigits) {
    throw new DomainError('validation_error', `${param} must be below 10^${maxAmountIntegerDigits}`, { param })
  }
  const decimals = text.split('.')[1]?.length ?? 0
  if (decimals > currencyDecimals[currency]) {
    throw new DomainError('validation_error', `${currency} amounts have at most ${currencyDecimals[currency]} decimals`, { param })
  }
  return new Prisma.Decimal(text)
}

/** Always exactly the currency's decimals: "29.90", "10.000000". */
export function formatAmount(amount: Decimal | string | number, currency: Currency): string {
  return new Prisma.Decimal(amount).toFixed(currencyDecimals[currency], Prisma.Decimal.ROUND_HALF_UP)
}

export const zero = new Prisma.Decimal(0)

/**
 * The largest amount one PIX payment can carry: the BR Code's field 54 (the amount, "9999999999.99")
 * holds at most 13 characters, so a larger BRL charge could never be paid.
 */
export const maxPixAmount = new Prisma.Decimal('9999999999.99')

export function fitsOnePixPayment(amount: Decimal | string): boolean {
  return !new Prisma.Decimal(amount).greaterThan(maxPixAmount)
}

/** BRL is collected by PIX: an amount charged whole (a checkout, a fixed price) must fit one PIX payment. */
export function requirePayableByPix(amount: Decimal, currency: Currency, param: string, what: string): void {
  if (currency === 'BRL' && !fitsOnePixPayment(amount)) {
    throw new DomainError('validation_error', `${what} in BRL are paid by PIX, which carries at most ${maxPixAmount.toFixed(2)}`, { param })
  }
}

export const maxQuantity = new Prisma.Decimal('1000000000000')

/** Every number of up to 15 significant digits survives the trip through a double; longer ones may not. */
const maxQuantityDigits = 15

/** Whether a JSON or GraphQL number literal survives the trip through a double (at most 15 significant digits). */
export function keepsItsDigits(numberText: string): boolean {
  const mantissa = numberText.replace(/^-/, '').replace(/[eE].*$/, '')
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '')
  return digits.length <= maxQuantityDigits
}

/**
 * A quantity as the client wrote it (the JSON number's text): refused when it has more significant
 * digits than a double keeps, instead of recording a silently rounded value.
 */
export function requireExactQuantity(text: string, param = 'quantity'): void {
  if (!keepsItsDigits(text)) {
    throw new DomainError('validation_error', `quantity has more than ${maxQuantityDigits} significant digits and would be rounded`, { param })
  }
}

/** A usage quantity: a finite JSON number above zero, at most 10^12, at most 12 decimals. */
export function parseQuantity(quantity: number, param = 'quantity'): Decimal {
  if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0) {
    throw new DomainError('validation_error', 'quantity must be a number greater than zero', { param })
  }
  const value = new Prisma.Decimal(quantity)
  if (value.greaterThan(maxQuantity) || value.decimalPlaces() > 12) {
    throw new DomainError('validation_error', 'quantity must be at most 10^12 with at most 12 decimals', { param })
  }
  return value
}
