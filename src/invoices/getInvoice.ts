import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { Invoice, InvoiceLine } from '../generated/prisma/client'

export async function getInvoice(context: DomainContext, invoiceId: string, param = 'invoiceId'): Promise<Invoice & { lines: InvoiceLine[] }> {
  const invoice = await context.db.invoice.findUnique({
    where: { accountId_id: { accountId: context.account.id, id: invoiceId } },
    include: { lines: { orderBy: { position: 'asc' } } },
  })
  if (!invoice) throw new DomainError('invoice_not_found', 'No such invoice', { param })
  return invoice
}
