import { inTransaction, systemClock, type DomainContext } from '../domain/DomainContext'
import { encryptSecret } from '../secrets/encryptSecret'
import { getWebhookEndpoint } from './getWebhookEndpoint'
import { generateWebhookSecret, previousSecretLifetimeMs } from './webhookSecret'
import type { WebhookEndpointView } from './WebhookEndpointView'

/**
 * A new secret, returned once. The one it replaces keeps signing beside it for 24 hours of real time
 * (deliveries carry both signatures), so receivers can switch without losing a delivery. Rotating
 * again within those hours retires the older one at once: at most two secrets sign.
 */
export async function rotateWebhookEndpointSecret(context: DomainContext, endpointId: string): Promise<WebhookEndpointView> {
  const secret = generateWebhookSecret()
  return inTransaction(context, async (transaction) => {
    const current = await getWebhookEndpoint(transaction, endpointId, 'id')
    const endpoint = await transaction.db.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        secret: encryptSecret(secret),
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(systemClock.now().getTime() + previousSecretLifetimeMs),
        updatedAt: transaction.clock.now(),
      },
    })
    return { ...endpoint, revealedSecret: secret }
  })
}
