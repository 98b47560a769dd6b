import type { DatabaseClient } from '../database/createDatabaseClient'
import type { UsageEvent } from '../generated/prisma/client'
import { recordUsageEvents, type PreparedUsageEvent } from './recordUsageEvents'

interface Pending {
  event: PreparedUsageEvent
  resolve: (event: UsageEvent) => void
  reject: (error: unknown) => void
}

const retryableCodes = new Set(['40P01', '40001'])

/**
 * Group commit for usage events. Events that arrive together are recorded by one statement in one
 * transaction: one commit (and one WAL flush) for many events, with no weaker durability, since no
 * caller is answered before the commit that holds its event. A batch closes when the running ones
 * finish or when it is full; up to `maxConcurrentBatches` commit at once.
 */
export class UsageEventBatcher {
  private queue: Pending[] = []
  private running = 0

  constructor(
    private readonly prisma: DatabaseClient,
    private readonly maxBatchSize = 256,
    private readonly maxConcurrentBatches = 2,
  ) {}

  record(event: PreparedUsageEvent): Promise<UsageEvent> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject })
      if (this.running < this.maxConcurrentBatches) setImmediate(() => this.flush())
    })
  }

  private flush(): void {
    if (this.queue.length === 0 || this.running >= this.maxConcurrentBatches) return
    const batch = this.queue.splice(0, this.maxBatchSize)
    this.running += 1
    void this.commit(batch).finally(() => {
      this.running -= 1
      this.flush()
    })
  }

  private async commit(batch: Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const outcomes = await recordUsageEvents(this.prisma, batch.map((pending) => pending.event))
        outcomes.forEach((outcome, index) => {
          const pending = batch[index]!
          if ('event' in outcome) pending.resolve(outcome.event)
          else pending.reject(outcome.error)
        })
        return
      } catch (error) {
        // Concurrent batches of other processes can still collide; the whole batch rolled back, so retrying is safe.
        if (attempt < 4 && retryableCodes.has(databaseCode(error))) continue
        for (const pending of batch) pending.reject(error)
        return
      }
    }
  }
}

function databaseCode(error: unknown): string {
  const text = JSON.stringify(error, Object.getOwnPropertyNames(error ?? {}))
  return /40P01|40001/.exec(text)?.[0] ?? ''
}
