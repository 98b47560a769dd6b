import type { EventContext } from '../events/recordEvent'
import type { Currency } from '../domain/money'
import type { Invoice, PaymentMethod } from '../generated/prisma/client'
import { collectPixAutomaticoInvoice } from '../payments/pix/collectPixAutomaticoInvoice'
import { allocateDepositAddress } from '../payments/usdc/allocateDepositAddress'
import { isAutomaticRail } from '../subscriptions/paymentRails'
import { settleInvoicePayment } from './settleInvoicePayment'

/**
 * How an invoice is collected once it is issued. `automatic` on an automatic rail asks the rail to
 * charge the payer; `open` (and every manual rail) leaves it for the payer to pay.
 */
export type Collection = 'automatic' | 'open'

/**
 * Starts collecting an issued, open invoice, in the transaction that issued it. The rule that must
 * hold: money is recorded only by the provider of the invoice's currency reporting it (CONTRACT §9).
 * - With a provider, the invoice stays open and gets what its payer needs: a USDC deposit address
 *   now; a PIX charge from the PIX worker (which gives every open BRL invoice its `cob`, or for
 *   pix_auto its Pix Automático recurring charge); a new pix_auto subscription's recurrence now.
 * - Without one, only a test account's sandbox charges an automatic rail at once (a succeeded
 *   transaction for money that is simulated). A live account never gets here with a rail it cannot
 *   collect (rails need their provider), and if it did, the invoice would stay open.
 */
export async function collectInvoice(context: EventContext, invoice: Invoice, collection: Collection): Promise<Invoice> {
  if (invoice.status !== 'open') return invoice
  const provider = await findProvider(context, invoice.currency as Currency)
  if (provider) {
    if (provider === 'usdc') await allocateDepositAddress(context.db, invoice.accountId, { invoiceId: invoice.id })
    // A new pix_auto subscription starts its recurrence now, so its first invoice shows the composite
    // code at once (a PSP refusing fails the creation, nothing half-done). Renewals get their recurring
    // charge from the PIX worker: a PSP that is down never blocks a renewal.
    if (provider === 'pix' && collection === 'open' && invoice.paymentMethod === 'pix_auto') {
      const pixProvider = await context.db.pixProvider.findUniqueOrThrow({ where: { accountId: context.account.id } })
      await collectPixAutomaticoInvoice(context, pixProvider, invoice)
    }
    return invoice
  }
  const sandboxCharges = context.account.mode === 'test' && collection === 'automatic' && isAutomaticRail(invoice.paymentMethod as PaymentMethod)
  if (!sandboxCharges) return invoice
  return settleInvoicePayment(context, invoice.id, 'succeeded')
}

async function findProvider(context: EventContext, currency: Currency): Promise<'pix' | 'usdc' | null> {
  const where = { where: { accountId: context.account.id }, select: { accountId: true } }
  if (currency === 'BRL') return (await context.db.pixProvider.findUnique(where)) ? 'pix' : null
  return (await context.db.usdcProvider.findUnique(where)) ? 'usdc' : null
}
