import { describe, expect, test } from 'vitest'
import { nextPeriodEnd, periodStart } from '../src/subscriptions/billingPeriods'

// Periods follow calendar months or years from the anchor; a day the target month lacks falls on its
// last day, and every period is computed from the anchor, so a short month never shifts later ones.

const at = (text: string) => new Date(text)
const iso = (date: Date) => date.toISOString()

/** The chain of period boundaries a subscription walks through, renewal after renewal. */
function boundaries(anchor: Date, interval: 'month' | 'year', count: number): string[] {
  const chain = [anchor]
  while (chain.length < count) chain.push(nextPeriodEnd(anchor, interval, chain[chain.length - 1]!))
  return chain.map(iso)
}

describe('monthly periods at the end of a month', () => {
  test('Jan 31 → Feb 28 → Mar 31 → Apr 30 in a common year, at the anchor time of day', () => {
    expect(boundaries(at('2025-01-31T15:04:05.678Z'), 'month', 5)).toEqual([
      '2025-01-31T15:04:05.678Z',
      '2025-02-28T15:04:05.678Z',
      '2025-03-31T15:04:05.678Z',
      '2025-04-30T15:04:05.678Z',
      '2025-05-31T15:04:05.678Z',
    ])
  })

  test('Jan 31 → Feb 29 → Mar 31 in a leap year', () => {
    expect(boundaries(at('2024-01-31T00:00:00.000Z'), 'month', 3)).toEqual(['2024-01-31T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '2024-03-31T00:00:00.000Z'])
  })

  test('the 30th and the 29th fall on Feb 28, then come back', () => {
    expect(boundaries(at('2025-01-30T10:00:00.000Z'), 'month', 3).slice(1)).toEqual(['2025-02-28T10:00:00.000Z', '2025-03-30T10:00:00.000Z'])
    expect(boundaries(at('2025-01-29T10:00:00.000Z'), 'month', 3).slice(1)).toEqual(['2025-02-28T10:00:00.000Z', '2025-03-29T10:00:00.000Z'])
  })

  test('December rolls into January of the next year', () => {
    expect(boundaries(at('2025-12-31T23:59:59.999Z'), 'month', 3)).toEqual(['2025-12-31T23:59:59.999Z', '2026-01-31T23:59:59.999Z', '2026-02-28T23:59:59.999Z'])
  })

  test('period n is computed from the anchor: two years of renewals never drift', () => {
    const anchor = at('2023-08-31T12:00:00.000Z')
    const chain = boundaries(anchor, 'month', 25)
    expect(chain[24]).toBe('2025-08-31T12:00:00.000Z')
    chain.forEach((boundary, index) => expect(boundary).toBe(iso(periodStart(anchor, 'month', index))))
    // Every 31st-anchored period ends on the 31st or, in a shorter month, on its last day.
    for (const boundary of chain) {
      const date = new Date(boundary)
      const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()
      expect(date.getUTCDate()).toBe(lastDay)
    }
  })

  test('a start between boundaries ends at the next boundary', () => {
    expect(iso(nextPeriodEnd(at('2025-01-31T00:00:00.000Z'), 'month', at('2025-02-10T00:00:00.000Z')))).toBe('2025-02-28T00:00:00.000Z')
    expect(iso(nextPeriodEnd(at('2025-01-31T00:00:00.000Z'), 'month', at('2025-02-28T00:00:00.000Z')))).toBe('2025-03-31T00:00:00.000Z')
  })
})

describe('yearly periods', () => {
  test('Feb 29 → Feb 28 in common years → Feb 29 again in the next leap year', () => {
    expect(boundaries(at('2024-02-29T08:30:00.000Z'), 'year', 6)).toEqual([
      '2024-02-29T08:30:00.000Z',
      '2025-02-28T08:30:00.000Z',
      '2026-02-28T08:30:00.000Z',
      '2027-02-28T08:30:00.000Z',
      '2028-02-29T08:30:00.000Z',
      '2029-02-28T08:30:00.000Z',
    ])
  })

  test('a year is twelve months of the same anchor', () => {
    const anchor = at('2025-01-31T00:00:00.000Z')
    expect(iso(periodStart(anchor, 'year', 1))).toBe(iso(periodStart(anchor, 'month', 12)))
    expect(iso(nextPeriodEnd(anchor, 'year', anchor))).toBe('2026-01-31T00:00:00.000Z')
  })
})
