import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnsOf, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Meter } from '../generated/prisma/client'

export interface MeterFilter {
  createdAt?: TimeRange | null
}

export const meterList: RecordListDefinition<Meter, MeterFilter, 'createdAt' | 'name'> = {
  table: 'Meter',
  columns: columnsOf(Prisma.MeterScalarFieldEnum),
  largeColumns: [],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' }, name: { column: 'name', kind: 'text' } },
  conditions: (filter) => timeWithin('createdAt', filter.createdAt),
}
