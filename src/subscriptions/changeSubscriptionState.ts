import { recordEvent } from '../events/recordEvent'
import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { syncSubscriptionEntitlement } from '../entitlements/syncSubscriptionEntitlement'
import type { Subscription, SubscriptionStatus } from '../generated/prisma/client'
import { getSubscription } from './getSubscription'

// The transitions a client asks for (CONTRACT §6): cancel from any state but canceled; pause from
// active; resume from paused. Anything else is 409 invalid_state. The move is a conditional update,
// so two concurrent requests cannot both make it.

const transitions = {
  cancel: { from: ['trialing', 'active', 'past_due', 'paused'], to: 'canceled', entitlement: 'revoked' },
  pause: { from: ['active'], to: 'paused', entitlement: 'revoked' },
  resume: { from: ['paused'], to: 'active', entitlement: 'active' },
} as const satisfies Record<string, { from: readonly SubscriptionStatus[]; to: SubscriptionStatus; entitlement: 'revoked' | 'active' }>

export type SubscriptionTransition = keyof typeof transitions

export async function changeSubscriptionState(context: DomainContext, subscriptionId: string, transition: SubscriptionTransition): Promise<Subscription> {
  const rule = transitions[transition]
  return inTransaction(context, async (transaction) => {
    const { db, clock } = transaction
    const current = await getSubscription(transaction, subscriptionId)
    const now = clock.now()
    const moved = await db.subscription.updateMany({
      where: { id: current.id, status: { in: [...rule.from] } },
      data: { status: rule.to, ...(rule.to === 'canceled' ? { canceledAt: now } : {}) },
    })
    if (moved.count === 0) {
      throw new DomainError('invalid_state', `A ${current.status} subscription cannot ${transition}`, { param: 'subscriptionId' })
    }
    const subscription = await db.subscription.findUniqueOrThrow({ where: { id: current.id } })
    await syncSubscriptionEntitlement(transaction, subscription, rule.entitlement, now)
    await recordEvent(transaction, rule.to === 'canceled' ? 'subscription.canceled' : 'subscription.updated', subscription)
    return subscription
  })
}
