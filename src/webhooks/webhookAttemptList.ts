import type { RecordListDefinition } from '../domain/RecordList'
import { columnEquals, columnsOf } from '../domain/recordListQuery'
import { Prisma, type WebhookAttempt } from '../generated/prisma/client'
import { getWebhookEndpoint } from './getWebhookEndpoint'

/** Every attempt to deliver to one endpoint (GET /v1/webhook_endpoints/{id}/deliveries). */
export interface WebhookAttemptFilter {
  endpointId: string
}

export const webhookAttemptList: RecordListDefinition<WebhookAttempt, WebhookAttemptFilter, 'createdAt'> = {
  table: 'WebhookAttempt',
  columns: columnsOf(Prisma.WebhookAttemptScalarFieldEnum, ['responseBody']),
  // The receiver's answer (up to 1 KiB), kept for operators: no field shows it, so it is never read here.
  largeColumns: ['responseBody'],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' } },
  conditions: (filter) => columnEquals('endpointId', filter.endpointId),
  // An endpoint of another account, or none, is 404 rather than an empty list.
  check: async (context, filter) => {
    await getWebhookEndpoint(context, filter.endpointId, 'endpointId')
  },
}
