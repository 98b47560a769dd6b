import { Webhook } from 'standardwebhooks'

export interface SigningSecrets {
  secret: string
  /** The secret before a rotation, while it still signs. */
  previousSecret?: string | undefined
}

/**
 * The Standard Webhooks headers for one attempt, signed by the reference implementation:
 * `webhook-id` is the event id (receivers deduplicate on it), `webhook-timestamp` the attempt's time,
 * and `webhook-signature` one `v1,…` per secret, space-separated during a rotation.
 */
export function signWebhook(secrets: SigningSecrets, eventId: string, attemptedAt: Date, body: string): Record<string, string> {
  const signatures = [secrets.secret, ...(secrets.previousSecret ? [secrets.previousSecret] : [])].map((secret) => new Webhook(secret).sign(eventId, attemptedAt, body))
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(attemptedAt.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  }
}
