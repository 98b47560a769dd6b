import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Product, ProductStatus } from '../generated/prisma/client'

export async function listProducts(context: DomainContext, filter: { status?: ProductStatus | null }, page: PageRequest): Promise<Page<Product>> {
  return readPage(page, (take) =>
    context.db.product.findMany({
      where: { accountId: context.account.id, ...(filter.status ? { status: filter.status } : {}), ...afterPosition(page.after) },
      orderBy: newestFirst,
      take,
    }),
  )
}
