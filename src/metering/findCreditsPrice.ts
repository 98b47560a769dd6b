import type { DomainContext } from '../domain/DomainContext'
import type { Price } from '../generated/prisma/client'

/**
 * The price that charges credits for a meter (CONTRACT §6): an active `credits` price, or an active
 * `metered` price with usageBillingMode `credits`, on an active product. The newest wins when several do.
 */
export async function findCreditsPrice(context: DomainContext, meterId: string): Promise<Price | null> {
  return context.db.price.findFirst({
    where: {
      accountId: context.account.id,
      meterId,
      active: true,
      product: { status: 'active' },
      OR: [{ model: 'credits' }, { model: 'metered', usageBillingMode: 'credits' }],
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  })
}
