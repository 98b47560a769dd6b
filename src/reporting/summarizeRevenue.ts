import type { DomainContext } from '../domain/DomainContext'
import { formatAmount, type Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import type { ReportingRange } from './reportingRange'
import { bucketSeries } from './bucketSeries'

export interface AmountPoint {
  start: Date
  amount: string
}

/**
 * Revenue per bucket: what succeeded payments brought in, by the time they were made. A refunded
 * transaction counts its amount in and out (succeeded minus refunded), so it adds nothing.
 */
export async function summarizeRevenue(context: DomainContext, currency: Currency, range: ReportingRange): Promise<AmountPoint[]> {
  const rows = await context.db.$queryRaw<{ start: Date; amount: string }[]>(Prisma.sql`
    WITH buckets AS (${bucketSeries(range)}),
    sums AS (
      SELECT date_trunc(${range.bucket}, "createdAt", 'UTC') AS start, sum(amount) AS amount
      FROM "Transaction"
      WHERE "accountId" = ${context.account.id} AND currency = ${currency}::"Currency" AND status = 'succeeded'
        AND "createdAt" >= ${range.from} AND "createdAt" < ${range.to}
      GROUP BY 1)
    SELECT buckets.start, coalesce(sums.amount, 0)::text AS amount FROM buckets LEFT JOIN sums USING (start) ORDER BY buckets.start`)
  return rows.map((row) => ({ start: row.start, amount: formatAmount(row.amount, currency) }))
}
