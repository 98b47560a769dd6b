import type { DomainContext } from '../domain/DomainContext'
import type { Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import { bucketSeries } from './bucketSeries'
import type { ReportingRange } from './reportingRange'

export interface StatusCount {
  status: string
  count: number
}

export interface SubscriptionMovement {
  start: Date
  created: number
  canceled: number
}

/** Subscriptions (of prices in `currency`) by status now, every status listed. */
export async function countSubscriptionsByStatus(context: DomainContext, currency: Currency): Promise<StatusCount[]> {
  const rows = await context.db.$queryRaw<{ status: string; count: number }[]>(Prisma.sql`
    SELECT statuses.value::text AS status, count(subscription.id)::int AS count
    FROM unnest(enum_range(NULL::"SubscriptionStatus")) AS statuses(value)
    LEFT JOIN ("Subscription" subscription JOIN "Price" price ON price.id = subscription."priceId" AND price.currency = ${currency}::"Currency")
      ON subscription.status = statuses.value AND subscription."accountId" = ${context.account.id}
    GROUP BY statuses.value ORDER BY statuses.value`)
  return rows
}

/** New and canceled subscriptions per bucket. */
export async function countSubscriptionMovements(context: DomainContext, currency: Currency, range: ReportingRange): Promise<SubscriptionMovement[]> {
  return context.db.$queryRaw<SubscriptionMovement[]>(Prisma.sql`
    WITH buckets AS (${bucketSeries(range)}),
    live AS (
      SELECT subscription."createdAt", subscription."canceledAt" FROM "Subscription" subscription
      JOIN "Price" price ON price.id = subscription."priceId"
      WHERE subscription."accountId" = ${context.account.id} AND price.currency = ${currency}::"Currency"
        AND (subscription."createdAt" < ${range.to} AND (subscription."createdAt" >= ${range.from} OR subscription."canceledAt" >= ${range.from}))),
    created AS (SELECT date_trunc(${range.bucket}, "createdAt", 'UTC') AS start, count(*)::int AS n FROM live WHERE "createdAt" >= ${range.from} GROUP BY 1),
    canceled AS (SELECT date_trunc(${range.bucket}, "canceledAt", 'UTC') AS start, count(*)::int AS n FROM live
      WHERE "canceledAt" >= ${range.from} AND "canceledAt" < ${range.to} GROUP BY 1)
    SELECT buckets.start, coalesce(created.n, 0) AS created, coalesce(canceled.n, 0) AS canceled
    FROM buckets LEFT JOIN created USING (start) LEFT JOIN canceled USING (start) ORDER BY buckets.start`)
}
