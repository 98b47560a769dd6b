import type { DomainContext } from '../domain/DomainContext'
import { formatAmount, type Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import { bucketSeries } from './bucketSeries'
import type { ReportingRange } from './reportingRange'
import type { AmountPoint } from './summarizeRevenue'

/**
 * MRR at the end of each bucket (the range's end for the last one): the subscriptions live then, priced
 * as computeRecurringRevenue prices them (yearly prices a twelfth, divided once per bucket so the sum
 * is exact until it is rounded). A subscription is live from the payment of its first invoice until it
 * is canceled. Pauses keep no history, so a subscription paused now is left out of every bucket, and a
 * past_due one counts until it is canceled.
 */
export async function summarizeRecurringRevenue(context: DomainContext, currency: Currency, range: ReportingRange): Promise<AmountPoint[]> {
  const rows = await context.db.$queryRaw<{ start: Date; amount: string }[]>(Prisma.sql`
    WITH buckets AS (SELECT start, least(start + ('1 ' || ${range.bucket})::interval, ${range.to}::timestamptz) AS "end" FROM (${bucketSeries(range)}) series),
    live AS (
      SELECT price.amount, coalesce(price.interval::text = 'year', false) AS yearly, started.at AS "startedAt", subscription."canceledAt"
      FROM "Subscription" subscription
      JOIN "Price" price ON price.id = subscription."priceId"
      CROSS JOIN LATERAL (SELECT min(invoice."paidAt") AS at FROM "Invoice" invoice WHERE invoice."subscriptionId" = subscription.id AND invoice.status = 'paid') started
      WHERE subscription."accountId" = ${context.account.id} AND price.currency = ${currency}::"Currency" AND price.model = 'subscription'
        AND subscription.status <> 'paused'
        AND subscription."createdAt" < ${range.to} AND (subscription."canceledAt" IS NULL OR subscription."canceledAt" > ${range.from})
        AND started.at IS NOT NULL)
    SELECT buckets.start,
           (coalesce(sum(live.amount) FILTER (WHERE NOT live.yearly), 0) + coalesce(sum(live.amount) FILTER (WHERE live.yearly), 0) / 12)::text AS amount
    FROM buckets LEFT JOIN live ON live."startedAt" < buckets."end" AND (live."canceledAt" IS NULL OR live."canceledAt" >= buckets."end")
    GROUP BY buckets.start ORDER BY buckets.start`)
  return rows.map((row) => ({ start: row.start, amount: formatAmount(row.amount, currency) }))
}
