import { Prisma } from '../generated/prisma/client'
import type { Currency } from '../domain/money'
import type { ReportingRange } from './reportingRange'

/**
 * Every movement of revenue in [from, to), as a SQL subquery with columns `at`, `customerId` and
 * `amount`: each payment that succeeded (refunded later or not) at its creation, and each confirmed
 * refund, negated, at its confirmation. A refund lowers the bucket it happened in, never the
 * payment's own bucket after the fact. Read through (accountId, createdAt) on Transaction and
 * (accountId, confirmedAt) on Refund.
 */
export function revenueMovements(accountId: string, currency: Currency, range: ReportingRange): Prisma.Sql {
  return Prisma.sql`
    SELECT payment."createdAt" AS at, payment."customerId", payment.amount FROM "Transaction" payment
    WHERE payment."accountId" = ${accountId} AND payment.currency = ${currency}::"Currency" AND payment.status IN ('succeeded', 'refunded')
      AND payment."createdAt" >= ${range.from} AND payment."createdAt" < ${range.to}
    UNION ALL
    SELECT refund."confirmedAt" AS at, payment."customerId", -refund.amount AS amount
    FROM "Refund" refund JOIN "Transaction" payment ON payment.id = refund."transactionId"
    WHERE refund."accountId" = ${accountId} AND refund.status = 'succeeded' AND payment.currency = ${currency}::"Currency"
      AND refund."confirmedAt" >= ${range.from} AND refund."confirmedAt" < ${range.to}`
}
