import type { DomainContext } from '../domain/DomainContext'
import { formatAmount, type Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import type { ReportingRange } from './reportingRange'
import { bucketSeries } from './bucketSeries'
import { revenueMovements } from './revenueMovements'

export interface AmountPoint {
  start: Date
  amount: string
}

/**
 * Revenue per bucket: succeeded payments in the bucket they were made, minus refunds in the bucket
 * they were confirmed (revenueMovements), so a partial or full refund never rewrites an earlier bucket.
 */
export async function summarizeRevenue(context: DomainContext, currency: Currency, range: ReportingRange): Promise<AmountPoint[]> {
  const rows = await context.db.$queryRaw<{ start: Date; amount: string }[]>(Prisma.sql`
    WITH buckets AS (${bucketSeries(range)}),
    movements AS (${revenueMovements(context.account.id, currency, range)}),
    sums AS (SELECT date_trunc(${range.bucket}, at, 'UTC') AS start, sum(amount) AS amount FROM movements GROUP BY 1)
    SELECT buckets.start, coalesce(sums.amount, 0)::text AS amount FROM buckets LEFT JOIN sums USING (start) ORDER BY buckets.start`)
  return rows.map((row) => ({ start: row.start, amount: formatAmount(row.amount, currency) }))
}
