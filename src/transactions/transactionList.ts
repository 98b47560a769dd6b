import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnEquals, columnsOf, enumEquals, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Transaction } from '../generated/prisma/client'

export interface TransactionFilter {
  customerId?: string | null
  invoiceId?: string | null
  status?: string | null
  currency?: string | null
  createdAt?: TimeRange | null
}

export type TransactionSort = 'createdAt' | 'amount'

export const transactionList: RecordListDefinition<Transaction, TransactionFilter, TransactionSort> = {
  table: 'Transaction',
  columns: columnsOf(Prisma.TransactionScalarFieldEnum),
  largeColumns: [],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' }, amount: { column: 'amount', kind: 'decimal' } },
  conditions: (filter) => [
    ...columnEquals('customerId', filter.customerId),
    ...columnEquals('invoiceId', filter.invoiceId),
    ...enumEquals('status', 'TransactionStatus', filter.status),
    ...enumEquals('currency', 'Currency', filter.currency),
    ...timeWithin('createdAt', filter.createdAt),
  ],
}
