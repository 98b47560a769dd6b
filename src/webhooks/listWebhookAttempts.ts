import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { WebhookAttempt } from '../generated/prisma/client'
import { getWebhookEndpoint } from './getWebhookEndpoint'

/** Every attempt to deliver to one endpoint, newest first (GET /v1/webhook_endpoints/{id}/deliveries). */
export async function listWebhookAttempts(context: DomainContext, endpointId: string, page: PageRequest): Promise<Page<WebhookAttempt>> {
  await getWebhookEndpoint(context, endpointId, 'endpointId')
  return readPage(page, (take) =>
    context.db.webhookAttempt.findMany({ where: { accountId: context.account.id, endpointId, ...afterPosition(page.after) }, orderBy: newestFirst, take }),
  )
}
