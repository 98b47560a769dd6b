import type { DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { Prisma } from '../generated/prisma/client'
import { bucketSeries } from './bucketSeries'
import type { ReportingRange } from './reportingRange'

export interface QuantityPoint {
  start: Date
  quantity: string
}

const hour = 3_600_000

/** A meter's usage per bucket (its aggregation: sum of quantities, or count of events), of all customers or one. */
export async function summarizeUsageSeries(context: DomainContext, meterId: string, customerId: string | null, range: ReportingRange): Promise<QuantityPoint[]> {
  const meter = await context.db.meter.findFirst({ where: { id: meterId, accountId: context.account.id }, select: { aggregation: true } })
  if (!meter) throw new DomainError('meter_not_found', 'No such meter', { param: 'meterId' })
  const counted = meter.aggregation === 'count'
  const measured = customerId === null ? allCustomers(context.account.id, meterId, counted, range) : oneCustomer(context.account.id, meterId, customerId, counted, range)
  const rows = await context.db.$queryRaw<{ start: Date; quantity: string }[]>(Prisma.sql`
    WITH buckets AS (${bucketSeries(range)}),
    measured AS (${measured}),
    sums AS (SELECT date_trunc(${range.bucket}, at, 'UTC') AS start, sum(quantity) AS quantity FROM measured GROUP BY 1)
    SELECT buckets.start, coalesce(sums.quantity, 0)::text AS quantity FROM buckets LEFT JOIN sums USING (start) ORDER BY buckets.start`)
  return rows.map((row) => ({ start: row.start, quantity: new Prisma.Decimal(row.quantity).toFixed() }))
}

/** One customer's events (few per customer, read through the (meterId, customerId, createdAt) index). */
function oneCustomer(accountId: string, meterId: string, customerId: string, counted: boolean, range: ReportingRange): Prisma.Sql {
  return Prisma.sql`
    SELECT "createdAt" AS at, ${counted ? Prisma.sql`1::numeric` : Prisma.sql`quantity`} AS quantity FROM "UsageEvent"
    WHERE "accountId" = ${accountId} AND "meterId" = ${meterId} AND "customerId" = ${customerId}
      AND "createdAt" >= ${range.from} AND "createdAt" < ${range.to}`
}

/**
 * Every customer's usage: the whole hours inside [from, to) from the hourly rollup (its shards summed),
 * which the usage hot path keeps in the events' own transaction, so the work does not grow with the
 * number of events; the partial hours at either edge (a range need not start on the hour) from the
 * events themselves. The three parts cover [from, to) exactly once.
 */
function allCustomers(accountId: string, meterId: string, counted: boolean, range: ReportingRange): Prisma.Sql {
  const from = range.from.getTime()
  const to = range.to.getTime()
  const firstWholeHour = from % hour === 0 ? from : from - (from % hour) + hour
  const wholeHoursEnd = to - (to % hour)
  const headEnd = Math.min(firstWholeHour, to)
  const tailStart = Math.max(wholeHoursEnd, headEnd)
  const eventsBetween = (start: number, end: number) => Prisma.sql`
    SELECT "createdAt" AS at, ${counted ? Prisma.sql`1::numeric` : Prisma.sql`quantity`} AS quantity FROM "UsageEvent"
    WHERE "accountId" = ${accountId} AND "meterId" = ${meterId} AND "createdAt" >= ${new Date(start)} AND "createdAt" < ${new Date(end)}`
  return Prisma.sql`
    SELECT hour AS at, ${counted ? Prisma.sql`events::numeric` : Prisma.sql`quantity`} AS quantity FROM "UsageRollup"
    WHERE "accountId" = ${accountId} AND "meterId" = ${meterId} AND hour >= ${new Date(firstWholeHour)} AND hour < ${new Date(wholeHoursEnd)}
    UNION ALL ${eventsBetween(from, headEnd)}
    UNION ALL ${eventsBetween(tailStart, to)}`
}
