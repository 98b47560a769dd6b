import type { PriceInterval } from '../generated/prisma/client'

/**
 * The start of period `index` of a subscription anchored at `anchor`: calendar months or years later,
 * at the same time of day. A day the target month lacks falls on its last day (Jan 31 → Feb 28/29 →
 * Mar 31), and every period is computed from the anchor, so short months never shift later periods.
 */
export function periodStart(anchor: Date, interval: PriceInterval, index: number): Date {
  const months = interval === 'year' ? index * 12 : index
  const target = new Date(anchor.getTime())
  const day = anchor.getUTCDate()
  target.setUTCDate(1)
  target.setUTCMonth(target.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(day, lastDay))
  return target
}

/** The period that starts at `start` (a period boundary of the anchor) ends where the next one begins. */
export function nextPeriodEnd(anchor: Date, interval: PriceInterval, start: Date): Date {
  for (let index = 0; index < 100_000; index += 1) {
    const candidate = periodStart(anchor, interval, index)
    if (candidate > start) return candidate
  }
  throw new Error('period out of range')
}
