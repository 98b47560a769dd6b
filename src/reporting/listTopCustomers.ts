import type { DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { formatAmount, type Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import type { ReportingRange } from './reportingRange'
import { revenueMovements } from './revenueMovements'

export interface CustomerTotal {
  customerId: string
  total: string
}

export const maxTopCustomers = 50

/** The customers with the most revenue (in `currency`, net of refunds as summarizeRevenue counts it) or usage (of `meterId`) in the range, largest first. */
export async function listTopCustomers(
  context: DomainContext,
  input: { by: 'revenue' | 'usage'; currency: Currency; meterId: string | null; limit: number },
  range: ReportingRange,
): Promise<CustomerTotal[]> {
  if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > maxTopCustomers) {
    throw new DomainError('validation_error', `limit must be 1 to ${maxTopCustomers}`, { param: 'limit' })
  }
  if (input.by === 'usage') {
    if (!input.meterId) throw new DomainError('validation_error', 'Ranking by usage needs a meterId', { param: 'meterId' })
    const rows = await context.db.$queryRaw<CustomerTotal[]>(Prisma.sql`
      SELECT "customerId", sum(quantity)::text AS total FROM "UsageEvent"
      WHERE "accountId" = ${context.account.id} AND "meterId" = ${input.meterId} AND "createdAt" >= ${range.from} AND "createdAt" < ${range.to}
      GROUP BY "customerId" ORDER BY sum(quantity) DESC, "customerId" LIMIT ${input.limit}`)
    return rows.map((row) => ({ customerId: row.customerId, total: new Prisma.Decimal(row.total).toFixed() }))
  }
  const rows = await context.db.$queryRaw<CustomerTotal[]>(Prisma.sql`
    WITH movements AS (${revenueMovements(context.account.id, input.currency, range)})
    SELECT "customerId", sum(amount)::text AS total FROM movements
    GROUP BY "customerId" ORDER BY sum(amount) DESC, "customerId" LIMIT ${input.limit}`)
  return rows.map((row) => ({ customerId: row.customerId, total: formatAmount(row.total, input.currency) }))
}
