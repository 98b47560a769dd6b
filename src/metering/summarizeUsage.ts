import { getCustomer } from '../customers/getCustomer'
import type { DomainContext } from '../domain/DomainContext'
import { Prisma, type MeterResetPeriod } from '../generated/prisma/client'
import { getMeter } from './getMeter'

export interface UsageSummary {
  customerId: string
  meterId: string
  resetPeriod: MeterResetPeriod
  /** The window the count covers; null bounds for a meter that never resets. */
  windowStart: Date | null
  windowEnd: Date | null
  units: Prisma.Decimal
}

/**
 * A customer's usage of a meter in the meter's current reset window, by the account's clock: the
 * calendar month (UTC) for `month`, the ISO week (from Monday 00:00 UTC) for `week`, all time for
 * `never`. Units are the meter's aggregation: the sum of quantities, or the count of events.
 */
export async function summarizeUsage(context: DomainContext, input: { customerId: string; meterId: string }): Promise<UsageSummary> {
  const customer = await getCustomer(context, input.customerId)
  const meter = await getMeter(context, input.meterId)
  const [windowStart, windowEnd] = resetWindow(meter.resetPeriod, context.clock.now())
  const range = windowStart && windowEnd ? Prisma.sql`AND "createdAt" >= ${windowStart} AND "createdAt" < ${windowEnd}` : Prisma.empty
  const [row] = await context.db.$queryRaw<{ units: Prisma.Decimal }[]>(Prisma.sql`
    SELECT ${meter.aggregation === 'count' ? Prisma.sql`COUNT(*)::numeric` : Prisma.sql`COALESCE(SUM(quantity), 0)`} AS units
    FROM "UsageEvent" WHERE "customerId" = ${customer.id} AND "meterId" = ${meter.id} ${range}`)
  return { customerId: customer.id, meterId: meter.id, resetPeriod: meter.resetPeriod, windowStart, windowEnd, units: new Prisma.Decimal(row?.units ?? 0) }
}

export function resetWindow(resetPeriod: MeterResetPeriod, now: Date): [Date | null, Date | null] {
  if (resetPeriod === 'never') return [null, null]
  if (resetPeriod === 'month') {
    return [new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))]
  }
  const daysSinceMonday = (now.getUTCDay() + 6) % 7
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysSinceMonday))
  return [start, new Date(start.getTime() + 7 * 86_400_000)]
}
