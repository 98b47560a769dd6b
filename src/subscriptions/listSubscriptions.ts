import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Subscription } from '../generated/prisma/client'

export async function listSubscriptions(context: DomainContext, filter: { customerId?: string | null }, page: PageRequest): Promise<Page<Subscription>> {
  return readPage(page, (take) =>
    context.db.subscription.findMany({
      where: { accountId: context.account.id, ...(filter.customerId ? { customerId: filter.customerId } : {}), ...afterPosition(page.after) },
      orderBy: newestFirst,
      take,
    }),
  )
}
