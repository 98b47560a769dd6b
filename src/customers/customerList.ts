import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnEquals, columnsOf, startsWith, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Customer } from '../generated/prisma/client'

export interface CustomerFilter {
  externalId?: string | null
  /** Case-insensitive prefixes of the name and the email; the externalId prefix is exact. */
  namePrefix?: string | null
  emailPrefix?: string | null
  externalIdPrefix?: string | null
  createdAt?: TimeRange | null
}

export type CustomerSort = 'createdAt' | 'name'

export const customerList: RecordListDefinition<Customer, CustomerFilter, CustomerSort> = {
  table: 'Customer',
  columns: columnsOf(Prisma.CustomerScalarFieldEnum, ['metadata']),
  largeColumns: ['metadata'],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' }, name: { column: 'name', kind: 'text', nullable: true } },
  conditions: (filter) => [
    ...columnEquals('externalId', filter.externalId),
    ...startsWith('name', filter.namePrefix, true),
    ...startsWith('email', filter.emailPrefix, true),
    ...startsWith('externalId', filter.externalIdPrefix, false),
    ...timeWithin('createdAt', filter.createdAt),
  ],
}
