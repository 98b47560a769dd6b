import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnEquals, columnsOf, enumEquals, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Invoice } from '../generated/prisma/client'

export interface InvoiceFilter {
  customerId?: string | null
  subscriptionId?: string | null
  status?: string | null
  currency?: string | null
  createdAt?: TimeRange | null
}

export type InvoiceSort = 'createdAt' | 'amountDue' | 'dueDate'

export const invoiceList: RecordListDefinition<Invoice, InvoiceFilter, InvoiceSort> = {
  table: 'Invoice',
  columns: columnsOf(Prisma.InvoiceScalarFieldEnum),
  largeColumns: [],
  sorts: {
    createdAt: { column: 'createdAt', kind: 'time' },
    amountDue: { column: 'amountDue', kind: 'decimal' },
    dueDate: { column: 'dueDate', kind: 'time' },
  },
  conditions: (filter) => [
    ...columnEquals('customerId', filter.customerId),
    ...columnEquals('subscriptionId', filter.subscriptionId),
    ...enumEquals('status', 'InvoiceStatus', filter.status),
    ...enumEquals('currency', 'Currency', filter.currency),
    ...timeWithin('createdAt', filter.createdAt),
  ],
}
