import pg from 'pg'
import { logError } from '../logging/log'

export const apiKeysChangedChannel = 'api_keys_changed'

export interface CachedKey {
  keyId: string
  accountId: string
  mode: 'test' | 'live'
  clockOffsetMs: number
  scopes: string[]
  expiresAt: Date | null
}

/**
 * Keys that authenticated recently, so that the hot paths do not read the key table on every request.
 * The rule that must hold: a revoked key is refused on the next request, in every process. Every change
 * to a key or its account commits a NOTIFY on `api_keys_changed` (revokeApiKey, ensureBootstrapKey,
 * advancing a test account's clock, changing its rails); each process
 * LISTENs and empties its cache when one arrives. While the listening connection is down, the cache is
 * not used at all, so a missed notification can never leave a revoked key usable. Expiry is checked on
 * every use; entries also age out after `ttlMilliseconds`.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { key: CachedKey; storedAt: number }>()
  private listener: pg.Client | undefined
  private listening = false
  private closed = false

  constructor(
    private readonly databaseUrl: string,
    private readonly ttlMilliseconds = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  async start(): Promise<void> {
    if (this.closed) return
    const client = new pg.Client({ connectionString: this.databaseUrl })
    const lost = () => {
      if (this.listener !== client) return
      this.listening = false
      this.entries.clear()
      this.listener = undefined
      client.end().catch(() => undefined)
      if (!this.closed) setTimeout(() => void this.start().catch(() => undefined), 1000).unref()
    }
    client.on('error', lost)
    client.on('end', lost)
    client.on('notification', () => this.entries.clear())
    this.listener = client
    try {
      await client.connect()
      await client.query(`LISTEN ${apiKeysChangedChannel}`)
      // Anything cached before this point may have missed a notification.
      this.entries.clear()
      this.listening = true
    } catch (error) {
      logError(error)
      lost()
    }
  }

  get(secretHash: string, now: number): CachedKey | undefined {
    if (!this.listening) return undefined
    const entry = this.entries.get(secretHash)
    if (!entry) return undefined
    if (now - entry.storedAt > this.ttlMilliseconds) {
      this.entries.delete(secretHash)
      return undefined
    }
    return entry.key
  }

  set(secretHash: string, key: CachedKey, now: number): void {
    if (!this.listening) return
    if (this.entries.size >= this.maxEntries) this.entries.clear()
    this.entries.set(secretHash, { key, storedAt: now })
  }

  /** Drops every entry now, in this process (others follow when the NOTIFY arrives). */
  clear(): void {
    this.entries.clear()
  }

  async close(): Promise<void> {
    this.closed = true
    this.listening = false
    this.entries.clear()
    await this.listener?.end().catch(() => undefined)
  }
}
