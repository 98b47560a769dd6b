import type { AccountScope, Clock, Database } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import type { ApiKeyCache, CachedKey } from './ApiKeyCache'
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
export async function authenticateApiKey(
  db: Database,
  clock: Clock,
  authorization: string | null | undefined,
  cache?: ApiKeyCache,
): Promise<Caller> {
  const match = /^Bearer ([^\s]+)$/i.exec(authorization?.trim() ?? '')
  const secret = match?.[1]
  if (!secret || !isWellFormedKeySecret(secret)) throw unauthorized()
  const secretHash = hashKeySecret(secret)
  const now = clock.now()
  let key: CachedKey | undefined = cache?.get(secretHash, now.getTime())
  if (!key) {
    const stored = await db.apiKey.findUnique({ where: { secretHash }, include: { account: true } })
    if (!stored || stored.revokedAt !== null) throw unauthorized()
    key = {
      keyId: stored.id,
      accountId: stored.accountId,
      mode: stored.account.mode,
      clockOffsetMs: Number(stored.account.clockOffsetMs),
      scopes: stored.scopes,
      expiresAt: stored.expiresAt,
    }
    cache?.set(secretHash, key, now.getTime())
  }
  if (key.expiresAt !== null && key.expiresAt <= now) throw unauthorized()
  return { keyId: key.keyId, account: { id: key.accountId, mode: key.mode, clockOffsetMs: key.clockOffsetMs }, scopes: key.scopes }
}
