import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { DomainError } from '../domain/DomainError'
import { columnEquals, columnsOf, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Event } from '../generated/prisma/client'
import { isEventType } from './eventTypes'

export interface EventFilter {
  type?: string | null
  createdAt?: TimeRange | null
}

export const eventList: RecordListDefinition<Event, EventFilter, 'createdAt'> = {
  table: 'Event',
  columns: columnsOf(Prisma.EventScalarFieldEnum, ['data']),
  largeColumns: ['data'],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' } },
  conditions: (filter) => [...columnEquals('type', filter.type), ...timeWithin('createdAt', filter.createdAt)],
  check: async (_context, filter) => {
    if (filter.type != null && !isEventType(filter.type)) {
      throw new DomainError('validation_error', 'type must be one of the event types (see the README)', { param: 'type' })
    }
  },
}
