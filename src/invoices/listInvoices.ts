import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Invoice } from '../generated/prisma/client'

export async function listInvoices(context: DomainContext, filter: { customerId?: string | null; subscriptionId?: string | null }, page: PageRequest): Promise<Page<Invoice>> {
  return readPage(page, (take) =>
    context.db.invoice.findMany({
      where: {
        accountId: context.account.id,
        ...(filter.customerId ? { customerId: filter.customerId } : {}),
        ...(filter.subscriptionId ? { subscriptionId: filter.subscriptionId } : {}),
        ...afterPosition(page.after),
      },
      orderBy: newestFirst,
      take,
    }),
  )
}
