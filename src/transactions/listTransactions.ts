import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Transaction } from '../generated/prisma/client'

export async function listTransactions(context: DomainContext, filter: { customerId?: string | null }, page: PageRequest): Promise<Page<Transaction>> {
  return readPage(page, (take) =>
    context.db.transaction.findMany({
      where: { accountId: context.account.id, ...(filter.customerId ? { customerId: filter.customerId } : {}), ...afterPosition(page.after) },
      orderBy: newestFirst,
      take,
    }),
  )
}
