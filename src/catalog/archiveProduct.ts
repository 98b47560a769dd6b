import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import type { Product } from '../generated/prisma/client'
import { getProduct } from './getProduct'

/** Refused while any subscription on the product is not canceled (CONTRACT §6). */
export async function archiveProduct(context: DomainContext, productId: string): Promise<Product> {
  return inTransaction(context, async (transaction) => {
    const { db, clock } = transaction
    await getProduct(transaction, productId)
    // Lock the product row so that a subscription cannot be created between the check and the archive.
    await db.$queryRaw`SELECT id FROM "Product" WHERE id = ${productId} FOR UPDATE`
    const live = await db.subscription.count({ where: { productId, status: { not: 'canceled' } } })
    if (live > 0) {
      throw new DomainError('active_subscription', 'This product has subscriptions that are not canceled; cancel them before archiving')
    }
    return db.product.update({ where: { id: productId }, data: { status: 'archived', updatedAt: clock.now() } })
  })
}
