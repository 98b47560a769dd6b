import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import { parseQuantity, type Currency, type Decimal } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import { readAccessFacts, type AccessFacts, type AccessFactsRequest } from './readAccessFacts'

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
 * Checks access with a read of its own in `context.db` (inside a transaction: in that transaction).
 * Outside a transaction, checks go through the process's AccessChecker, which shares one read among
 * the checks that arrive together.
 */
export async function checkAccess(context: DomainContext, input: AccessCheckInput): Promise<AccessDecision> {
  const [facts] = await readAccessFacts(context.db, [accessFactsRequest(context, input)])
  return decideAccess(facts?.value)
}

/** What the facts query needs for one check (the quantity validated, as exact decimal text). */
export function accessFactsRequest(context: DomainContext, input: AccessCheckInput): AccessFactsRequest {
  const quantity = parseQuantity(input.quantity)
  return { accountId: context.account.id, customerId: input.customerId, meterId: input.meterId, quantity: quantity.toFixed() }
}

/**
 * CONTRACT §6, in order: a subscription-mode metered price the customer is entitled to; else a credits
 * price against the balance; else no entitlement. Reads only: a denial changes nothing. This is the
 * hottest path of the service: every fact it needs comes from one query.
 */
export function decideAccess(facts: AccessFacts | undefined): AccessDecision {
  if (!facts?.customerId) throw new DomainError('customer_not_found', 'No such customer', { param: 'customerId' })
  if (!facts.meterId) throw new DomainError('meter_not_found', 'No such meter', { param: 'meterId' })

  if (facts.entitlementStatus === 'active') return { allowed: true, reason: 'credits_available' }
  if (facts.entitlementStatus === 'past_due') return { allowed: false, reason: 'entitlement_past_due' }
  if (facts.entitlementStatus === 'expired') return { allowed: false, reason: 'entitlement_expired' }

  if (facts.cost === null || facts.currency === null) return { allowed: false, reason: 'no_entitlement' }
  const cost = new Prisma.Decimal(facts.cost)
  const balance = new Prisma.Decimal(facts.balance ?? 0)
  if (balance.greaterThanOrEqualTo(cost)) return { allowed: true, reason: 'credits_available' }
  return { allowed: false, reason: 'insufficient_credits', shortfall: { customerId: facts.customerId, currency: facts.currency, amount: cost.minus(balance) } }
}
