import type { StoredResponse } from '../src/idempotency/runIdempotently'
import { decryptSecret } from '../src/secrets/decryptSecret'
import { encryptSecret } from '../src/secrets/encryptSecret'

// A secret shown once (a webhook endpoint's `secret`, CONTRACT §10) is part of the response an
// Idempotency-Key keeps for 24 hours so that a retry gets the same answer (CONTRACT §3). Kept in
// plain text there it would outlive the moment it was shown, while the endpoint's own copy is
// encrypted; so the stored response holds it encrypted under the same key (BILLING_SECRETS_KEY), and
// it is decrypted as the response is sent: the first answer and every replay are the same.

type Envelope = { data?: Record<string, unknown> | null }

function mapDataFields(response: StoredResponse, fields: readonly string[], map: (value: string) => string): StoredResponse {
  const data = (response.body as Envelope | null)?.data
  if (fields.length === 0 || data === null || data === undefined || typeof data !== 'object') return response
  const changed = { ...data }
  for (const field of fields) {
    const value = changed[field]
    if (typeof value === 'string') changed[field] = map(value)
  }
  return { ...response, body: { ...(response.body as object), data: changed } }
}

/** The response as it is stored under its Idempotency-Key: `fields` of `data` encrypted. */
export function sealSecretFields(response: StoredResponse, fields: readonly string[]): StoredResponse {
  return mapDataFields(response, fields, encryptSecret)
}

/** The stored response as it is sent: `fields` of `data` decrypted. */
export function openSecretFields(response: StoredResponse, fields: readonly string[]): StoredResponse {
  return mapDataFields(response, fields, decryptSecret)
}
