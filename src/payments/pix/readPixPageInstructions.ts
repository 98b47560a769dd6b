import type { Database } from '../../domain/DomainContext'
import { formatAmount, type Decimal } from '../../domain/money'

/**
 * What the hosted page shows for a BRL payable of an account with a PSP: its charge, that the charge
 * is still being made, or nothing (a zero amount has no charge). Never the static BR Code: nothing
 * would reconcile a payment made to it.
 */
export type PixPageInstructions =
  | { kind: 'charge'; pixCopiaECola: string; expiresAt: Date; amountReceived: string }
  | { kind: 'preparing' }
  | { kind: 'nothing' }

/**
 * The charge (cob) of a checkout session or invoice, for its payer's page; undefined when the account
 * has no PSP (a test account: the sandbox's static BR Code is shown instead). An open invoice's charge
 * is made by the background worker, so for a while there may be none yet.
 */
export async function readPixPageInstructions(db: Database, accountId: string, kind: 'checkout' | 'invoices', id: string, amountDue: Decimal): Promise<PixPageInstructions | undefined> {
  const charge = await db.pixCharge.findUnique({ where: kind === 'checkout' ? { checkoutSessionId: id } : { invoiceId: id } })
  if (charge) return { kind: 'charge', pixCopiaECola: charge.pixCopiaECola, expiresAt: charge.expiresAt, amountReceived: formatAmount(charge.amountReceived, 'BRL') }
  const provider = await db.pixProvider.findUnique({ where: { accountId }, select: { accountId: true } })
  if (!provider) return undefined
  return amountDue.isZero() ? { kind: 'nothing' } : { kind: 'preparing' }
}
