import type { CheckoutSession, CheckoutStatus } from '../generated/prisma/client'

export const checkoutLifetimeMilliseconds = 24 * 60 * 60 * 1000

/** An open session past its expiry is expired, whether or not a write has recorded it yet. */
export function effectiveStatus(session: Pick<CheckoutSession, 'status' | 'expiresAt'>, now: Date): CheckoutStatus {
  return session.status === 'open' && session.expiresAt <= now ? 'expired' : session.status
}
