/**
 * A least-recently-used cache bounded by the total weight of its entries rather than by their
 * number (a count bounds nothing when one entry may be a thousand times the size of another).
 * An entry heavier than the whole budget is not kept.
 */
export class WeightedCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>()
  private totalWeight = 0

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (key: K, value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  /** Whether `key` is held, without counting as a use. */
  has(key: K): boolean {
    return this.entries.has(key)
  }

  set(key: K, value: V): void {
    this.delete(key)
    const weight = this.weigh(key, value)
    if (weight > this.maxWeight) return
    this.entries.set(key, { value, weight })
    this.totalWeight += weight
    for (const [oldestKey] of this.entries) {
      if (this.totalWeight <= this.maxWeight) break
      this.delete(oldestKey)
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.totalWeight -= entry.weight
  }

  get weight(): number {
    return this.totalWeight
  }
}
