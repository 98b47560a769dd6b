import type { Clock, Database } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { notifyApiKeysChanged } from './notifyApiKeysChanged'

/** Revokes at once: the change and the notification that empties every process's key cache commit together. */
export async function revokeApiKey(db: Database, clock: Clock, keyId: string): Promise<{ id: string; revokedAt: Date }> {
  const now = clock.now()
  await db.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: now } })
  await notifyApiKeysChanged(db)
  const key = await db.apiKey.findUnique({ where: { id: keyId } })
  if (!key) throw new DomainError('not_found', 'No API key with this id', { param: 'keyId' })
  return { id: key.id, revokedAt: key.revokedAt ?? now }
}
