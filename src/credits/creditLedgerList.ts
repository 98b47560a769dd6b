import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnEquals, columnsOf, enumEquals, timeWithin } from '../domain/recordListQuery'
import { Prisma, type CreditLedgerEntry } from '../generated/prisma/client'

export interface CreditLedgerFilter {
  customerId?: string | null
  currency?: string | null
  kind?: string | null
  createdAt?: TimeRange | null
}

export const creditLedgerList: RecordListDefinition<CreditLedgerEntry, CreditLedgerFilter, 'createdAt'> = {
  table: 'CreditLedgerEntry',
  columns: columnsOf(Prisma.CreditLedgerEntryScalarFieldEnum),
  largeColumns: [],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' } },
  conditions: (filter) => [
    ...columnEquals('customerId', filter.customerId),
    ...enumEquals('currency', 'Currency', filter.currency),
    ...enumEquals('kind', 'LedgerEntryKind', filter.kind),
    ...timeWithin('createdAt', filter.createdAt),
  ],
}
