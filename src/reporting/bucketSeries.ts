import { Prisma } from '../generated/prisma/client'
import type { ReportingRange } from './reportingRange'

/** Every bucket start of the range (UTC), as a SQL subquery with one column `start`, so empty buckets show as zero. */
export function bucketSeries(range: ReportingRange): Prisma.Sql {
  return Prisma.sql`
    SELECT generate_series(date_trunc(${range.bucket}, ${range.from}::timestamptz, 'UTC'), ${range.to}::timestamptz - interval '1 millisecond', ('1 ' || ${range.bucket})::interval) AS start`
}
