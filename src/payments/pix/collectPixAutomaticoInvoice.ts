import type { DomainContext } from '../../domain/DomainContext'
import type { Invoice, PixProvider } from '../../generated/prisma/client'
import { createPixRecurringCharge } from './createPixRecurringCharge'
import { startPixRecurrence } from './startPixRecurrence'

/**
 * How Pix Automático collects an open pix_auto invoice. True when it does: the subscription's first
 * invoice through the PSP starts the recurrence (journey 3: composite code), and each invoice of an
 * approved recurrence gets its recurring charge. False when the payer must pay an ordinary cob: the
 * recurrence is not (or no longer) approved, or the invoice's recurring charge ended without the money
 * (finally rejected, expired, canceled), or the customer has no taxId to name the payer with.
 */
export async function collectPixAutomaticoInvoice(context: DomainContext, provider: PixProvider, invoice: Invoice): Promise<boolean> {
  const recurrence = await context.db.pixRecurrence.findUnique({ where: { subscriptionId: invoice.subscriptionId } })
  if (!recurrence) {
    // A recurrence names its payer: without the customer's CPF/CNPJ the payer pays an ordinary cob.
    const customer = await context.db.customer.findUniqueOrThrow({ where: { id: invoice.customerId }, select: { taxId: true } })
    if (!customer.taxId) return false
    await startPixRecurrence(context, provider, invoice)
    return true
  }
  if (recurrence.status !== 'APROVADA') return false
  const existing = await context.db.pixRecurringCharge.findUnique({ where: { invoiceId: invoice.id } })
  if (existing) return existing.outcome === null
  await createPixRecurringCharge(context, provider, invoice, recurrence)
  return true
}
