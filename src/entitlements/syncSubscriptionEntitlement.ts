import { recordEvent, type EventContext } from '../events/recordEvent'
import { createId } from '../domain/createId'
import type { EntitlementStatus, Subscription } from '../generated/prisma/client'

/**
 * An entitlement follows its subscription (CONTRACT §6): active → active, past_due → past_due, paused
 * or canceled → revoked, a period that ended without renewal → expired. It exists once the
 * subscription was first paid for; until then there is nothing to update.
 */
export async function syncSubscriptionEntitlement(
  context: EventContext,
  subscription: Pick<Subscription, 'id' | 'accountId' | 'customerId' | 'productId' | 'currentPeriodEnd'>,
  status: EntitlementStatus,
  now: Date,
  options: { createIfMissing?: boolean } = {},
): Promise<void> {
  const { db } = context
  const existing = await db.entitlement.findUnique({ where: { subscriptionId: subscription.id } })
  if (existing) {
    await db.entitlement.update({ where: { id: existing.id }, data: { status, endsAt: subscription.currentPeriodEnd } })
    await recordEvent(context, 'entitlement.updated', existing)
    return
  }
  if (!options.createIfMissing) return
  const created = await db.entitlement.create({
    data: {
      id: createId('Entitlement'),
      accountId: subscription.accountId,
      customerId: subscription.customerId,
      productId: subscription.productId,
      subscriptionId: subscription.id,
      status,
      source: 'subscription',
      startsAt: now,
      endsAt: subscription.currentPeriodEnd,
      createdAt: now,
    },
  })
  await recordEvent(context, 'entitlement.updated', created)
}
