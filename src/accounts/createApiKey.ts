import type { Database, Clock } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { createId } from '../domain/createId'
import { displayPrefix, generateKeySecret, hashKeySecret } from './apiKeySecrets'
import { ensureAccount } from './ensureAccount'
import { allScopes, type Scope } from './scopes'

export interface CreateApiKeyInput {
  accountName: string
  /** Used only when the account does not exist yet; an existing account keeps its mode. */
  mode?: 'test' | 'live'
  scopes?: readonly Scope[]
  expiresInDays?: number
  /** A secret chosen by the operator (BILLING_BOOTSTRAP_KEY); otherwise a random one. */
  secret?: string
}

export interface CreatedApiKey {
  id: string
  /** The secret: shown once, never stored. */
  key: string
  accountId: string
  scopes: Scope[]
  expiresAt: Date | null
}

export async function createApiKey(db: Database, clock: Clock, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const scopes = [...new Set(input.scopes ?? allScopes)]
  if (scopes.length === 0) throw new DomainError('validation_error', 'a key needs at least one scope', { param: 'scopes' })
  if (input.expiresInDays !== undefined && !(Number.isInteger(input.expiresInDays) && input.expiresInDays > 0)) {
    throw new DomainError('validation_error', 'expiresInDays must be a positive whole number', { param: 'expiresInDays' })
  }
  const account = await ensureAccount(db, clock, input.accountName, input.mode ?? 'test')
  const secret = input.secret ?? generateKeySecret(account.mode)
  const now = clock.now()
  const expiresAt = input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * 86_400_000)
  const key = await db.apiKey.create({
    data: {
      id: createId('ApiKey'),
      accountId: account.id,
      secretHash: hashKeySecret(secret),
      prefix: displayPrefix(secret),
      scopes,
      expiresAt,
      createdAt: now,
    },
  })
  return { id: key.id, key: secret, accountId: account.id, scopes, expiresAt }
}
