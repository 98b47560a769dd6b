import { getCustomer } from '../customers/getCustomer'
import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Entitlement } from '../generated/prisma/client'

export async function listEntitlements(context: DomainContext, customerId: string, page: PageRequest): Promise<Page<Entitlement>> {
  await getCustomer(context, customerId)
  return readPage(page, (take) =>
    context.db.entitlement.findMany({
      where: { accountId: context.account.id, customerId, ...afterPosition(page.after) },
      orderBy: newestFirst,
      take,
    }),
  )
}
