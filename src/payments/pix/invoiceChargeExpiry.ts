import type { Invoice } from '../../generated/prisma/client'

/** An open invoice stays payable after its due date (it only turns the subscription past_due): its cob lasts 30 days past it. */
export function invoiceChargeExpiry(invoice: Pick<Invoice, 'dueDate'>, now: Date): Date {
  return new Date(Math.max(invoice.dueDate.getTime(), now.getTime()) + 30 * 86_400_000)
}
