import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { Subscription } from '../generated/prisma/client'

export async function getSubscription(context: DomainContext, subscriptionId: string, param = 'subscriptionId'): Promise<Subscription> {
  const subscription = await context.db.subscription.findUnique({ where: { accountId_id: { accountId: context.account.id, id: subscriptionId } } })
  if (!subscription) throw new DomainError('subscription_not_found', 'No such subscription', { param })
  return subscription
}
