import type { Database } from '../domain/DomainContext'
import type { Account, Invoice } from '../generated/prisma/client'

/** Like a checkout page, an invoice's payment page is addressed by the unguessable invoice id alone. */
export async function findInvoiceForPayer(db: Database, invoiceId: string): Promise<{ invoice: Invoice; account: Account } | null> {
  const invoice = await db.invoice.findUnique({ where: { id: invoiceId }, include: { account: true } })
  if (!invoice) return null
  const { account, ...rest } = invoice
  return { invoice: rest, account }
}
