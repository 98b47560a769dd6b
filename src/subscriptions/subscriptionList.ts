import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnEquals, columnsOf, enumEquals, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Subscription } from '../generated/prisma/client'

export interface SubscriptionFilter {
  customerId?: string | null
  productId?: string | null
  status?: string | null
  createdAt?: TimeRange | null
}

export type SubscriptionSort = 'createdAt' | 'currentPeriodEnd'

export const subscriptionList: RecordListDefinition<Subscription, SubscriptionFilter, SubscriptionSort> = {
  table: 'Subscription',
  columns: columnsOf(Prisma.SubscriptionScalarFieldEnum),
  largeColumns: [],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' }, currentPeriodEnd: { column: 'currentPeriodEnd', kind: 'time' } },
  conditions: (filter) => [
    ...columnEquals('customerId', filter.customerId),
    ...columnEquals('productId', filter.productId),
    ...enumEquals('status', 'SubscriptionStatus', filter.status),
    ...timeWithin('createdAt', filter.createdAt),
  ],
}
