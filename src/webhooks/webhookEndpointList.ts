import type { RecordListDefinition } from '../domain/RecordList'
import { columnsOf } from '../domain/recordListQuery'
import { Prisma, type WebhookEndpoint } from '../generated/prisma/client'

/** An account's webhook endpoints (at most 16): no filters. */
export type WebhookEndpointFilter = Record<string, never>

export const webhookEndpointList: RecordListDefinition<WebhookEndpoint, WebhookEndpointFilter, 'createdAt'> = {
  table: 'WebhookEndpoint',
  columns: columnsOf(Prisma.WebhookEndpointScalarFieldEnum),
  largeColumns: [],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' } },
  conditions: () => [],
}
