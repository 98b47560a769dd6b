import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { WebhookEndpoint } from '../generated/prisma/client'

export async function listWebhookEndpoints(context: DomainContext, page: PageRequest): Promise<Page<WebhookEndpoint>> {
  return readPage(page, (take) =>
    context.db.webhookEndpoint.findMany({ where: { accountId: context.account.id, ...afterPosition(page.after) }, orderBy: newestFirst, take }),
  )
}
