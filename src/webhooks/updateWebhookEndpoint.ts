import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { validateText } from '../domain/validateMetadata'
import type { Prisma, WebhookEndpoint } from '../generated/prisma/client'
import { getWebhookEndpoint } from './getWebhookEndpoint'
import { resolveDestination } from '../domain/resolveDestination'
import { normalizeEndpointUrl, validateEndpointEvents, webhookEndpointLimits } from './webhookEndpointRules'

/** Absent fields stay as they are; `description: null` clears it. */
export interface UpdateWebhookEndpointInput {
  url?: string | null
  events?: readonly string[] | null
  description?: string | null
  status?: 'enabled' | 'disabled' | null
}

/**
 * Disabling gives up the deliveries still owed to the endpoint (they are marked failed), so that
 * enabling it again sends only events that happen from then on, as for a new endpoint (CONTRACT §10:
 * no backlog). Enabling starts its five days of allowed failure afresh.
 */
export async function updateWebhookEndpoint(context: DomainContext, endpointId: string, input: UpdateWebhookEndpointInput): Promise<WebhookEndpoint> {
  const data: Prisma.WebhookEndpointUpdateInput = {}
  if (input.url != null) {
    const url = normalizeEndpointUrl(input.url, context.account.mode)
    if (context.account.mode === 'live') await resolveDestination(url, 'live')
    data.url = url.href
  }
  if (input.events != null) data.events = validateEndpointEvents(input.events)
  if (input.description !== undefined) data.description = input.description === null ? null : validateText(input.description, 'description', webhookEndpointLimits.description)
  return inTransaction(context, async (transaction) => {
    const { db, account, clock } = transaction
    const current = await getWebhookEndpoint(transaction, endpointId, 'id')
    if (input.status != null && input.status !== current.status) {
      data.status = input.status
      data.failingSince = null
      if (input.status === 'disabled') {
        await db.webhookDelivery.updateMany({ where: { accountId: account.id, endpointId, status: 'pending' }, data: { status: 'failed', leaseToken: null } })
      }
    }
    return db.webhookEndpoint.update({ where: { id: current.id }, data: { ...data, updatedAt: clock.now() } })
  })
}
