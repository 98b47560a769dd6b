import { getCustomer } from '../customers/getCustomer'
import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnEquals, columnsOf, enumEquals, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Entitlement } from '../generated/prisma/client'

export interface EntitlementFilter {
  customerId?: string | null
  productId?: string | null
  status?: string | null
  createdAt?: TimeRange | null
}

export const entitlementList: RecordListDefinition<Entitlement, EntitlementFilter, 'createdAt'> = {
  table: 'Entitlement',
  columns: columnsOf(Prisma.EntitlementScalarFieldEnum),
  largeColumns: [],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' } },
  conditions: (filter) => [
    ...columnEquals('customerId', filter.customerId),
    ...columnEquals('productId', filter.productId),
    ...enumEquals('status', 'EntitlementStatus', filter.status),
    ...timeWithin('createdAt', filter.createdAt),
  ],
  // A customer's entitlements: an unknown customer is 404 customer_not_found (SPEC.md), not an empty list.
  check: async (context, filter) => {
    if (filter.customerId != null) await getCustomer(context, filter.customerId)
  },
}
