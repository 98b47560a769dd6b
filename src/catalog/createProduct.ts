import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { validateMetadata, validateText } from '../domain/validateMetadata'
import type { Product, ProductType } from '../generated/prisma/client'
import { writePrice, type PriceInput } from './createPrice'
import { productLimits } from './productRules'

export interface CreateProductInput {
  name: string
  type: ProductType
  description?: string | null
  metadata?: Record<string, unknown> | null
  defaultPrice?: PriceInput | null
}

export async function createProduct(context: DomainContext, input: CreateProductInput): Promise<Product> {
  const name = validateText(input.name, 'name', productLimits.name)
  const description = input.description == null ? null : validateText(input.description, 'description', productLimits.description)
  const metadata = input.metadata == null ? undefined : validateMetadata(input.metadata)
  return inTransaction(context, async (transaction) => {
    const now = transaction.clock.now()
    const product = await transaction.db.product.create({
      data: {
        id: createId('Product'),
        accountId: transaction.account.id,
        name,
        type: input.type,
        description,
        metadata: metadata as object,
        createdAt: now,
        updatedAt: now,
      },
    })
    if (!input.defaultPrice) return product
    const price = await writePrice(transaction, product, input.defaultPrice, 'defaultPrice')
    return transaction.db.product.update({ where: { id: product.id }, data: { defaultPriceId: price.id } })
  })
}
