import type { WebhookEndpoint } from '../generated/prisma/client'

/**
 * An endpoint as the API shows it. `revealedSecret` is set only by the two operations that hand a
 * secret out (create and rotate_secret); the stored `secret` columns are encrypted and never shown.
 */
export type WebhookEndpointView = WebhookEndpoint & { revealedSecret?: string }
