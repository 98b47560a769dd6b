import type { DatabaseClient } from '../database/createDatabaseClient'
import { Batcher, isTransactionConflict } from '../domain/Batcher'
import { isTransaction, type DomainContext } from '../domain/DomainContext'
import { isolateItemFailures } from '../domain/isolateItemFailures'
import type { UsageEvent } from '../generated/prisma/client'
import { observeBatches } from '../metrics/batcherMetrics'
import { recordUsageEvent } from './recordUsageEvent'
import { prepareUsageEvent, recordUsageEvents, type PreparedUsageEvent, type RecordUsageEventInput } from './recordUsageEvents'

/**
 * The usage-event hot path of a process (one on Services). Group commit: one transaction (one WAL
 * flush) for the events that arrive together, and nobody is answered before the commit that holds
 * their event. Callers of every account share a batch, so a batch that fails for one item's sake is
 * split until that item stands alone (see isolateItemFailures).
 */
export class UsageEventRecorder {
  private readonly batcher: Batcher<PreparedUsageEvent, UsageEvent>

  constructor(prisma: DatabaseClient) {
    this.batcher = new Batcher((events) => recordUsageEvents(prisma, events), {
      isRetryable: isTransactionConflict,
      maxConcurrentBatches: 4,
      observer: observeBatches('usage_events'),
      ...isolateItemFailures,
    })
  }

  /** Records one usage event: in the caller's transaction when it holds one, else in a shared commit. */
  async record(context: DomainContext, input: RecordUsageEventInput): Promise<UsageEvent> {
    if (isTransaction(context.db)) return recordUsageEvent({ ...context, db: context.db }, input)
    return this.batcher.submit(prepareUsageEvent(context, input))
  }
}
