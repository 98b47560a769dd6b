import type { AccountScope, Clock, Database } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { hashKeySecret, isWellFormedKeySecret } from './apiKeySecrets'

export interface Caller {
  keyId: string
  account: AccountScope
  scopes: readonly string[]
}

const unauthorized = () => new DomainError('unauthorized', 'A valid API key is required: send "Authorization: Bearer <key>"')

/**
 * The caller named by an Authorization header. Missing, malformed, unknown, revoked and expired keys
 * all get the same answer, so that a response never tells which of these a guessed key was.
 */
export async function authenticateApiKey(db: Database, clock: Clock, authorization: string | null | undefined): Promise<Caller> {
  const match = /^Bearer ([^\s]+)$/i.exec(authorization?.trim() ?? '')
  const secret = match?.[1]
  if (!secret || !isWellFormedKeySecret(secret)) throw unauthorized()
  const key = await db.apiKey.findUnique({ where: { secretHash: hashKeySecret(secret) }, include: { account: true } })
  if (!key || key.revokedAt !== null || (key.expiresAt !== null && key.expiresAt <= clock.now())) throw unauthorized()
  return { keyId: key.id, account: { id: key.account.id, mode: key.account.mode }, scopes: key.scopes }
}
