import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import { costOf, parseQuantity, type Currency, type Decimal } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import { creditsPriceLateral } from '../metering/creditsPriceSql'
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

interface AccessFacts {
  customerId: string | null
  meterId: string | null
  aggregation: 'sum' | 'count' | null
  entitlementStatus: 'active' | 'past_due' | 'expired' | null
  unitAmount: Decimal | null
  currency: Currency | null
  balance: Decimal | null
}

/**
 * CONTRACT §6, in order: a subscription-mode metered price the customer is entitled to; else a credits
 * price against the balance; else no entitlement. Reads only: a denial changes nothing. This is the
 * hottest path of the service, so every fact it needs comes from one query.
 */
export async function checkAccess(context: DomainContext, input: AccessCheckInput): Promise<AccessDecision> {
  const quantity = parseQuantity(input.quantity)
  const accountId = context.account.id
  const [facts] = await context.db.$queryRaw<AccessFacts[]>(Prisma.sql`
    SELECT customer.id AS "customerId", meter.id AS "meterId", meter.aggregation::text AS aggregation,
      (SELECT entitlement.status::text FROM "Entitlement" entitlement
        WHERE entitlement."accountId" = ${accountId} AND entitlement."customerId" = customer.id
          AND entitlement.status IN ('active', 'past_due', 'expired')
          AND EXISTS (
            SELECT 1 FROM "Price" price JOIN "Product" product ON product.id = price."productId"
            WHERE price."productId" = entitlement."productId" AND product.status = 'active' AND price.active
              AND price."meterId" = meter.id AND price.model = 'metered' AND price."usageBillingMode" = 'subscription')
        -- the enum's order (active, past_due, expired): an active entitlement wins over a lapsed one
        ORDER BY entitlement.status, entitlement."createdAt" DESC
        LIMIT 1) AS "entitlementStatus",
      credits_price.amount AS "unitAmount", credits_price.currency::text AS currency,
      (SELECT balance.balance FROM "CreditBalance" balance
        WHERE balance."customerId" = customer.id AND balance.currency = credits_price.currency) AS balance
    FROM (SELECT 1) AS one
    LEFT JOIN "Customer" customer ON customer.id = ${input.customerId} AND customer."accountId" = ${accountId}
    LEFT JOIN "Meter" meter ON meter.id = ${input.meterId} AND meter."accountId" = ${accountId}
    LEFT JOIN ${creditsPriceLateral(accountId, Prisma.sql`meter.id`)} AS credits_price ON true`)
  if (!facts?.customerId) throw new DomainError('customer_not_found', 'No such customer', { param: 'customerId' })
  if (!facts.meterId || !facts.aggregation) throw new DomainError('meter_not_found', 'No such meter', { param: 'meterId' })

  if (facts.entitlementStatus === 'active') return { allowed: true, reason: 'credits_available' }
  if (facts.entitlementStatus === 'past_due') return { allowed: false, reason: 'entitlement_past_due' }
  if (facts.entitlementStatus === 'expired') return { allowed: false, reason: 'entitlement_expired' }

  if (facts.unitAmount === null || facts.currency === null) return { allowed: false, reason: 'no_entitlement' }
  const cost = costOf(unitsFor({ aggregation: facts.aggregation }, quantity), new Prisma.Decimal(facts.unitAmount), facts.currency)
  const balance = new Prisma.Decimal(facts.balance ?? 0)
  if (balance.greaterThanOrEqualTo(cost)) return { allowed: true, reason: 'credits_available' }
  return { allowed: false, reason: 'insufficient_credits', shortfall: { customerId: facts.customerId, currency: facts.currency, amount: cost.minus(balance) } }
}
