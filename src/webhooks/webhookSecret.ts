import { randomBytes } from 'node:crypto'

/** A signing secret as Standard Webhooks writes it: `whsec_` and base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** How long the secret before a rotation keeps signing (CONTRACT §10), on real time. */
export const previousSecretLifetimeMs = 24 * 60 * 60 * 1000
