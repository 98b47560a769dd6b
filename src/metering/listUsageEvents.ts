import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { UsageEvent } from '../generated/prisma/client'

export interface UsageEventFilter {
  customerId?: string | null
  meterId?: string | null
}

export async function listUsageEvents(context: DomainContext, filter: UsageEventFilter, page: PageRequest): Promise<Page<UsageEvent>> {
  return readPage(page, (take) =>
    context.db.usageEvent.findMany({
      where: {
        accountId: context.account.id,
        ...(filter.customerId ? { customerId: filter.customerId } : {}),
        ...(filter.meterId ? { meterId: filter.meterId } : {}),
        ...afterPosition(page.after),
      },
      orderBy: newestFirst,
      take,
    }),
  )
}
