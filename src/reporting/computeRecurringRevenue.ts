import type { DomainContext } from '../domain/DomainContext'
import { formatAmount, type Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'

export interface RecurringRevenue {
  mrr: string
  arr: string
}

/**
 * MRR from live subscriptions (active or past_due: billed and not given up), yearly prices counted as
 * a twelfth a month; ARR is twelve times the exact MRR. Both rounded only at the end. Only fixed
 * recurring fees count: a subscription billed by usage (a metered price) has no monthly amount.
 */
export async function computeRecurringRevenue(context: DomainContext, currency: Currency): Promise<RecurringRevenue> {
  const [row] = await context.db.$queryRaw<{ mrr: string }[]>(Prisma.sql`
    SELECT coalesce(sum(CASE WHEN price.interval = 'year' THEN price.amount / 12 ELSE price.amount END), 0)::text AS mrr
    FROM "Subscription" subscription JOIN "Price" price ON price.id = subscription."priceId"
    WHERE subscription."accountId" = ${context.account.id} AND subscription.status IN ('active', 'past_due')
      AND price.currency = ${currency}::"Currency" AND price.model = 'subscription'`)
  const mrr = new Prisma.Decimal(row?.mrr ?? 0)
  return { mrr: formatAmount(mrr, currency), arr: formatAmount(mrr.times(12), currency) }
}
