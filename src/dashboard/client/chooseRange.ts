// The periods a person can pick, as [from, to) in UTC aligned to the bucket, today included.

export type RangeChoice = '30d' | '12w' | '12m'
export type Bucket = 'day' | 'week' | 'month'

export interface Range {
  from: string
  to: string
  bucket: Bucket
}

export const rangeChoices: { value: RangeChoice; label: string }[] = [
  { value: '30d', label: 'Last 30 days' },
  { value: '12w', label: 'Last 12 weeks' },
  { value: '12m', label: 'Last 12 months' },
]

const day = 86_400_000

export function chooseRange(choice: RangeChoice, now: Date = new Date()): Range {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  if (choice === '12m') {
    const from = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)
    const to = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)
    return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), bucket: 'month' }
  }
  if (choice === '12w') {
    const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * day
    return { from: new Date(monday - 11 * 7 * day).toISOString(), to: new Date(monday + 7 * day).toISOString(), bucket: 'week' }
  }
  return { from: new Date(today - 29 * day).toISOString(), to: new Date(today + day).toISOString(), bucket: 'day' }
}
