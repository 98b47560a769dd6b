import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { validateMetadata, validateText } from '../domain/validateMetadata'
import { Prisma, type Product, type ProductStatus } from '../generated/prisma/client'
import { getProduct } from './getProduct'
import { productLimits } from './productRules'

/** Absent fields stay; null clears description and metadata; status is set as given (SPEC.md). */
export interface UpdateProductInput {
  name?: string | null
  description?: string | null
  metadata?: Record<string, unknown> | null
  status?: ProductStatus | null
}

export async function updateProduct(context: DomainContext, productId: string, input: UpdateProductInput): Promise<Product> {
  const data: Prisma.ProductUpdateInput = {}
  if (input.name != null) data.name = validateText(input.name, 'name', productLimits.name)
  if (input.description !== undefined) data.description = input.description === null ? null : validateText(input.description, 'description', productLimits.description)
  if (input.metadata !== undefined) data.metadata = input.metadata === null ? Prisma.DbNull : (validateMetadata(input.metadata) as Prisma.InputJsonObject)
  if (input.status != null) data.status = input.status
  return inTransaction(context, async (transaction) => {
    await getProduct(transaction, productId)
    return transaction.db.product.update({ where: { id: productId }, data: { ...data, updatedAt: transaction.clock.now() } })
  })
}
