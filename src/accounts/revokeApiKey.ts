import { runInTransaction, type DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { notifyApiKeysChanged } from './notifyApiKeysChanged'

/**
 * Revokes at once: the change and the notification that empties every process's key cache are one
 * transaction (PostgreSQL delivers a NOTIFY when its transaction commits), so neither can happen
 * without the other.
 */
export async function revokeApiKey(context: Pick<DomainContext, 'db' | 'clock'>, keyId: string): Promise<{ id: string; revokedAt: Date }> {
  const now = context.clock.now()
  return runInTransaction(context.db, async (db) => {
    await db.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: now } })
    const key = await db.apiKey.findUnique({ where: { id: keyId } })
    if (!key) throw new DomainError('not_found', 'No API key with this id', { param: 'keyId' })
    await notifyApiKeysChanged(db)
    return { id: key.id, revokedAt: key.revokedAt ?? now }
  })
}
