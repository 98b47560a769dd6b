import { getCustomer } from '../customers/getCustomer'
import type { DomainContext } from '../domain/DomainContext'
import { costOf, parseQuantity, type Currency, type Decimal } from '../domain/money'
import { findCreditsPrice } from '../metering/findCreditsPrice'
import { getMeter } from '../metering/getMeter'
import { unitsFor } from '../metering/unitsFor'

export type AccessReason = 'credits_available' | 'insufficient_credits' | 'no_entitlement' | 'entitlement_expired' | 'entitlement_past_due'

export interface AccessDecision {
  allowed: boolean
  reason: AccessReason
  /** On insufficient_credits: what the customer must add to be allowed. */
  shortfall?: { customerId: string; currency: Currency; amount: Decimal }
}

export interface AccessCheckInput {
  customerId: string
  meterId: string
  quantity: number
}

/**
 * CONTRACT §6, in order: a subscription-mode metered price the customer is entitled to; else a credits
 * price against the balance; else no entitlement. Reads only: a denial changes nothing.
 */
export async function checkAccess(context: DomainContext, input: AccessCheckInput): Promise<AccessDecision> {
  const quantity = parseQuantity(input.quantity)
  const customer = await getCustomer(context, input.customerId)
  const meter = await getMeter(context, input.meterId)

  const entitlement = await context.db.entitlement.findFirst({
    where: {
      accountId: context.account.id,
      customerId: customer.id,
      status: { in: ['active', 'past_due', 'expired'] },
      product: { status: 'active', prices: { some: { meterId: meter.id, model: 'metered', usageBillingMode: 'subscription', active: true } } },
    },
    // An active entitlement wins over a lapsed one to the same usage.
    orderBy: [{ status: 'asc' }, { createdAt: 'desc' }],
  })
  if (entitlement?.status === 'active') return { allowed: true, reason: 'credits_available' }
  if (entitlement?.status === 'past_due') return { allowed: false, reason: 'entitlement_past_due' }
  if (entitlement?.status === 'expired') return { allowed: false, reason: 'entitlement_expired' }

  const price = await findCreditsPrice(context, meter.id)
  if (!price) return { allowed: false, reason: 'no_entitlement' }
  const cost = costOf(unitsFor(meter, quantity), price.amount, price.currency)
  const row = await context.db.creditBalance.findUnique({ where: { customerId_currency: { customerId: customer.id, currency: price.currency } } })
  const balance = row?.balance
  if (balance && balance.greaterThanOrEqualTo(cost)) return { allowed: true, reason: 'credits_available' }
  const amount = balance ? cost.minus(balance) : cost
  return { allowed: false, reason: 'insufficient_credits', shortfall: { customerId: customer.id, currency: price.currency, amount } }
}
