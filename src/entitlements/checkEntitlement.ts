import { getCustomer } from '../customers/getCustomer'
import { getProduct } from '../catalog/getProduct'
import type { DomainContext } from '../domain/DomainContext'
import type { EntitlementStatus } from '../generated/prisma/client'

export type EntitlementReason = 'active' | 'no_entitlement' | 'expired' | 'past_due' | 'revoked'

const preference: Record<EntitlementStatus, number> = { active: 0, past_due: 1, expired: 2, revoked: 3 }

/** May the customer use the product? The most favourable of their entitlements to it decides. Reads only. */
export async function checkEntitlement(context: DomainContext, input: { customerId: string; productId: string }): Promise<{ allowed: boolean; reason: EntitlementReason }> {
  const customer = await getCustomer(context, input.customerId)
  const product = await getProduct(context, input.productId)
  const entitlements = await context.db.entitlement.findMany({ where: { accountId: context.account.id, customerId: customer.id, productId: product.id } })
  const best = entitlements.sort((a, b) => preference[a.status] - preference[b.status])[0]
  if (!best) return { allowed: false, reason: 'no_entitlement' }
  return { allowed: best.status === 'active', reason: best.status }
}
