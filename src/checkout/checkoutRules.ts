import { Prisma, type CheckoutSession, type CheckoutStatus } from '../generated/prisma/client'

export const checkoutLifetimeMilliseconds = 24 * 60 * 60 * 1000

/** An open session past its expiry is expired, whether or not a write has recorded it yet. */
export function effectiveStatus(session: Pick<CheckoutSession, 'status' | 'expiresAt'>, now: Date): CheckoutStatus {
  return session.status === 'open' && session.expiresAt <= now ? 'expired' : session.status
}

/**
 * The largest amount a PIX BR Code can carry: its field 54 (the amount, "9999999999.99") holds at most
 * 13 characters, so a larger BRL checkout could never be paid.
 */
export const maxPixAmount = new Prisma.Decimal('9999999999.99')
