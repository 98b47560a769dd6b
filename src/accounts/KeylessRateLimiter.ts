import { isIPv6 } from 'node:net'

/**
 * Requests that carry no valid API key (hosted pages, the PIX callback, /graphql and /v1 without a
 * key, refused keys), limited per client address with a token bucket: `perSecond` tokens a second,
 * up to `burstSeconds` seconds' worth saved up.
 *
 * Why in this process's memory and not in PostgreSQL like the per-key RateLimiter: this is the traffic
 * anyone can send without an account, and counting it in the database would make every refused request
 * database work, the very load the limit is there to bound. What matters is that each process bounds
 * the keyless work it does, which its own count does. The memory is bounded too: at most
 * `maxAddresses` buckets, the least recently seen dropped first (a dropped address merely starts again
 * from a full bucket).
 */
export class KeylessRateLimiter {
  /** In order of last use: the first entry is the one to drop. */
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>()
  private readonly capacity: number

  constructor(
    private readonly perSecond: number,
    burstSeconds = 5,
    private readonly maxAddresses = 100_000,
  ) {
    this.capacity = Math.max(1, perSecond * burstSeconds)
  }

  get enabled(): boolean {
    return this.perSecond > 0
  }

  /** Addresses currently tracked (at most `maxAddresses`). */
  get size(): number {
    return this.buckets.size
  }

  /** Takes one token for `address`; answers how long to wait when there is none. */
  admit(address: string, now = Date.now()): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    if (!this.enabled) return { allowed: true }
    const tokens = this.tokensOf(address, now)
    this.buckets.delete(address)
    if (this.buckets.size >= this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value!)
    if (tokens >= 1) {
      this.buckets.set(address, { tokens: tokens - 1, updatedAt: now })
      return { allowed: true }
    }
    this.buckets.set(address, { tokens, updatedAt: now })
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.perSecond)) }
  }

  /** Whether `address` has no token left now (nothing is taken). */
  isExhausted(address: string, now = Date.now()): boolean {
    return this.enabled && this.tokensOf(address, now) < 1
  }

  private tokensOf(address: string, now: number): number {
    const bucket = this.buckets.get(address)
    if (!bucket) return this.capacity
    return Math.min(this.capacity, bucket.tokens + (Math.max(0, now - bucket.updatedAt) / 1000) * this.perSecond)
  }
}

/**
 * The address a limit counts: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64 prefix, since one
 * client is usually given a whole /64 and could otherwise take a fresh address for every request.
 */
export function clientAddressOf(remoteAddress: string | undefined): string {
  if (!remoteAddress) return 'unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remoteAddress)
  if (mapped) return mapped[1]!
  if (!isIPv6(remoteAddress)) return remoteAddress
  const [head = '', tail = ''] = remoteAddress.split('%')[0]!.split('::') as [string?, string?]
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = remoteAddress.includes('::') ? (tail === '' ? [] : tail.split(':')) : []
  const groups = remoteAddress.includes('::') ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups
  return `${groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16)).join(':')}::/64`
}
