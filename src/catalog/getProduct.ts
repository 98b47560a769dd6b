import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { Product } from '../generated/prisma/client'

export async function getProduct(context: DomainContext, productId: string, param = 'productId'): Promise<Product> {
  const product = await context.db.product.findUnique({ where: { accountId_id: { accountId: context.account.id, id: productId } } })
  if (!product) throw new DomainError('product_not_found', 'No such product', { param })
  return product
}
