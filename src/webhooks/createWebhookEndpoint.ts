import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { createId } from '../domain/createId'
import { validateText } from '../domain/validateMetadata'
import { encryptSecret } from '../secrets/encryptSecret'
import { resolveDestination } from '../domain/resolveDestination'
import { generateWebhookSecret } from './webhookSecret'
import { normalizeEndpointUrl, validateEndpointEvents, webhookEndpointLimits } from './webhookEndpointRules'
import type { WebhookEndpointView } from './WebhookEndpointView'

export interface CreateWebhookEndpointInput {
  url: string
  events: readonly string[]
  description?: string | null
}

/** The secret is returned here and by rotation only; it is stored encrypted (src/secrets). */
export async function createWebhookEndpoint(context: DomainContext, input: CreateWebhookEndpointInput): Promise<WebhookEndpointView> {
  const url = normalizeEndpointUrl(input.url, context.account.mode)
  const events = validateEndpointEvents(input.events)
  const description = input.description == null ? null : validateText(input.description, 'description', webhookEndpointLimits.description)
  if (context.account.mode === 'live') await resolveDestination(url, 'live')
  const secret = generateWebhookSecret()
  return inTransaction(context, async ({ db, account, clock }) => {
    // Serialises creations per account, so that two at once cannot both pass the count.
    await db.$queryRaw`SELECT id FROM "Account" WHERE id = ${account.id} FOR UPDATE`
    const existing = await db.webhookEndpoint.count({ where: { accountId: account.id } })
    if (existing >= webhookEndpointLimits.endpointsPerAccount) {
      throw new DomainError('invalid_state', `An account has at most ${webhookEndpointLimits.endpointsPerAccount} webhook endpoints; delete one first`)
    }
    const now = clock.now()
    const endpoint = await db.webhookEndpoint.create({
      data: { id: createId('WebhookEndpoint'), accountId: account.id, url: url.href, events, description, secret: encryptSecret(secret), createdAt: now, updatedAt: now },
    })
    return { ...endpoint, revealedSecret: secret }
  })
}
