import { DomainError } from '../domain/DomainError'

export type Bucket = 'hour' | 'day' | 'week' | 'month'

/** A half-open time range [from, to) cut into buckets (UTC; weeks start on Monday). */
export interface ReportingRange {
  from: Date
  to: Date
  bucket: Bucket
}

const approximateBucketMilliseconds: Record<Bucket, number> = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 28 * 86_400_000 }

/** A series is at most this many points: bounded work and a bounded answer whatever the range asked. */
export const maxBuckets = 1000

/**
 * About how many buckets the range cuts into, never fewer than there are: months counted as 28 days,
 * and one more for the partial bucket `from` falls in (the series starts at that bucket's start).
 */
export function estimateBucketCount(range: ReportingRange): number {
  return Math.ceil((range.to.getTime() - range.from.getTime()) / approximateBucketMilliseconds[range.bucket]) + 1
}

export function checkReportingRange(range: ReportingRange): ReportingRange {
  if (!(range.from.getTime() < range.to.getTime())) throw new DomainError('validation_error', '`from` must be before `to`', { param: 'from' })
  if (estimateBucketCount(range) > maxBuckets) {
    throw new DomainError('validation_error', `A series has at most ${maxBuckets} buckets: widen the bucket or narrow the range`, { param: 'bucket' })
  }
  return range
}
