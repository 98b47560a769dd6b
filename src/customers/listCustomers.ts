import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Customer } from '../generated/prisma/client'

export interface ListCustomersFilter {
  externalId?: string | null
}

export async function listCustomers(context: DomainContext, filter: ListCustomersFilter, page: PageRequest): Promise<Page<Customer>> {
  return readPage(page, (take) =>
    context.db.customer.findMany({
      where: {
        accountId: context.account.id,
        ...(filter.externalId == null ? {} : { externalId: filter.externalId }),
        ...afterPosition(page.after),
      },
      orderBy: newestFirst,
      take,
    }),
  )
}
