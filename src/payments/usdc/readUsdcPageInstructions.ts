import type { Database } from '../../domain/DomainContext'
import { readUsdcPaymentInstructions, type UsdcInstructions } from './readUsdcPaymentInstructions'

export interface UsdcPageInstructions {
  /** usdc_pull invoices carry the signer the payer approves for later periods (approveSpender). */
  instructions: UsdcInstructions
}

/** What the hosted page shows for a USDC payable of an account with a provider; undefined otherwise. */
export async function readUsdcPageInstructions(db: Database, kind: 'checkout' | 'invoices', id: string): Promise<UsdcPageInstructions | undefined> {
  if (kind === 'checkout') {
    const session = await db.checkoutSession.findUnique({ where: { id } })
    if (!session) return undefined
    const [instructions] = await readUsdcPaymentInstructions(db, [{ kind: 'checkout', id, amountDue: session.amount }])
    return instructions ? { instructions } : undefined
  }
  const invoice = await db.invoice.findUnique({ where: { id }, include: { subscription: true } })
  if (!invoice) return undefined
  const [instructions] = await readUsdcPaymentInstructions(db, [
    {
      kind: 'invoice',
      id,
      amountDue: invoice.amountDue,
      amountPaid: invoice.amountPaid,
      pullPayer: invoice.paymentMethod === 'usdc_pull' ? { accountId: invoice.accountId, payer: invoice.subscription.usdcPayer } : null,
    },
  ])
  return instructions ? { instructions } : undefined
}
