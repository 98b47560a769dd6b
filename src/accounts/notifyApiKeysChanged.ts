import type { Database } from '../domain/DomainContext'
import { apiKeysChangedChannel } from './ApiKeyCache'

/** Every server process drops its cached keys when the transaction that calls this commits. */
export async function notifyApiKeysChanged(db: Database): Promise<void> {
  await db.$executeRawUnsafe(`NOTIFY ${apiKeysChangedChannel}`)
}
