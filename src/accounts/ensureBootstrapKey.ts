import { runInTransaction, type Clock, type Database, type DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { hashKeySecret, isWellFormedKeySecret } from './apiKeySecrets'
import { createApiKey, type CreatedApiKey } from './createApiKey'
import { allScopes } from './scopes'
import { notifyApiKeysChanged } from './notifyApiKeysChanged'

export const defaultAccountName = 'default'

/**
 * BILLING_BOOTSTRAP_KEY: makes sure that key exists with all four scopes on the test account `default`
 * (CI, containers, first runs). A key an operator revoked stays revoked: revocation is a deliberate act.
 * One transaction: a changed key and the NOTIFY that empties every process's key cache commit together
 * (PostgreSQL delivers a NOTIFY when its transaction commits), so neither happens without the other.
 */
export async function ensureBootstrapKey(context: Pick<DomainContext, 'db' | 'clock'>, secret: string): Promise<void> {
  if (!secret.startsWith('bk_test_') || !isWellFormedKeySecret(secret)) {
    throw new DomainError('validation_error', 'BILLING_BOOTSTRAP_KEY must be a test key: bk_test_ followed by 16 to 128 letters or digits')
  }
  await runInTransaction(context.db, async (db) => {
    const existing = await db.apiKey.findUnique({ where: { secretHash: hashKeySecret(secret) } })
    if (existing) {
      await db.apiKey.update({ where: { id: existing.id }, data: { scopes: [...allScopes] } })
      await notifyApiKeysChanged(db)
      return
    }
    await createApiKey(db, context.clock, { accountName: defaultAccountName, mode: 'test', secret })
  })
}

/** On a database with no key at all, creates one for `default` and returns it (to be printed once). */
export async function createFirstKeyIfNone(db: Database, clock: Clock): Promise<CreatedApiKey | undefined> {
  if ((await db.apiKey.count()) > 0) return undefined
  return createApiKey(db, clock, { accountName: defaultAccountName, mode: 'test' })
}
