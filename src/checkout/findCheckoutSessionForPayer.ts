import type { Database } from '../domain/DomainContext'
import type { Account, CheckoutSession, Price, Product } from '../generated/prisma/client'

export interface PayerView {
  session: CheckoutSession
  account: Account
  product: (Product & { defaultPrice: Price | null }) | null
}

/**
 * The hosted payment page is addressed by the session id alone: like a Stripe checkout URL, the
 * unguessable id is the payer's capability, so this look-up is not scoped by an API key.
 */
export async function findCheckoutSessionForPayer(db: Database, sessionId: string): Promise<PayerView | null> {
  const session = await db.checkoutSession.findUnique({
    where: { id: sessionId },
    include: { account: true, product: { include: { defaultPrice: true } } },
  })
  if (!session) return null
  const { account, product, ...rest } = session
  return { session: rest, account, product }
}
