import type { DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import type { WebhookEndpoint } from '../generated/prisma/client'

export async function getWebhookEndpoint(context: DomainContext, endpointId: string, param = 'endpointId'): Promise<WebhookEndpoint> {
  const endpoint = await context.db.webhookEndpoint.findUnique({ where: { accountId_id: { accountId: context.account.id, id: endpointId } } })
  if (!endpoint) throw new DomainError('webhook_endpoint_not_found', 'No such webhook endpoint', { param })
  return endpoint
}
