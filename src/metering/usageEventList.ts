import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnEquals, columnsOf, timeWithin } from '../domain/recordListQuery'
import { Prisma, type UsageEvent } from '../generated/prisma/client'

export interface UsageEventFilter {
  customerId?: string | null
  meterId?: string | null
  createdAt?: TimeRange | null
}

export const usageEventList: RecordListDefinition<UsageEvent, UsageEventFilter, 'createdAt'> = {
  table: 'UsageEvent',
  // Metadata can be ~16 KB an event: read only when a query asks for it.
  columns: columnsOf(Prisma.UsageEventScalarFieldEnum, ['metadata']),
  largeColumns: ['metadata'],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' } },
  conditions: (filter) => [...columnEquals('customerId', filter.customerId), ...columnEquals('meterId', filter.meterId), ...timeWithin('createdAt', filter.createdAt)],
}
