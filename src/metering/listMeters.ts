import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Meter } from '../generated/prisma/client'

export async function listMeters(context: DomainContext, page: PageRequest): Promise<Page<Meter>> {
  return readPage(page, (take) =>
    context.db.meter.findMany({ where: { accountId: context.account.id, ...afterPosition(page.after) }, orderBy: newestFirst, take }),
  )
}
