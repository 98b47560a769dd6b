import type { DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { Prisma } from '../generated/prisma/client'
import { bucketSeries } from './bucketSeries'
import type { ReportingRange } from './reportingRange'

export interface QuantityPoint {
  start: Date
  quantity: string
}

/** A meter's usage per bucket (its aggregation: sum of quantities, or count of events), of all customers or one. */
export async function summarizeUsageSeries(context: DomainContext, meterId: string, customerId: string | null, range: ReportingRange): Promise<QuantityPoint[]> {
  const meter = await context.db.meter.findFirst({ where: { id: meterId, accountId: context.account.id }, select: { aggregation: true } })
  if (!meter) throw new DomainError('meter_not_found', 'No such meter', { param: 'meterId' })
  const measure = meter.aggregation === 'count' ? Prisma.sql`count(*)::numeric` : Prisma.sql`sum(quantity)`
  const onlyCustomer = customerId === null ? Prisma.empty : Prisma.sql`AND "customerId" = ${customerId}`
  const rows = await context.db.$queryRaw<{ start: Date; quantity: string }[]>(Prisma.sql`
    WITH buckets AS (${bucketSeries(range)}),
    sums AS (
      SELECT date_trunc(${range.bucket}, "createdAt", 'UTC') AS start, ${measure} AS quantity
      FROM "UsageEvent"
      WHERE "accountId" = ${context.account.id} AND "meterId" = ${meterId} ${onlyCustomer}
        AND "createdAt" >= ${range.from} AND "createdAt" < ${range.to}
      GROUP BY 1)
    SELECT buckets.start, coalesce(sums.quantity, 0)::text AS quantity FROM buckets LEFT JOIN sums USING (start) ORDER BY buckets.start`)
  return rows.map((row) => ({ start: row.start, quantity: new Prisma.Decimal(row.quantity).toFixed() }))
}
