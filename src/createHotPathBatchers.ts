import { readAccessFacts, type AccessFacts, type AccessFactsRequest } from './access/readAccessFacts'
import type { DatabaseClient } from './database/createDatabaseClient'
import { Batcher, isTransactionConflict } from './domain/Batcher'
import type { UsageEvent } from './generated/prisma/client'
import { observeBatches } from './metrics/batcherMetrics'
import { recordUsageEvents, type PreparedUsageEvent } from './metering/recordUsageEvents'

/**
 * The hot paths' batchers. Usage events: group commit, one transaction (one WAL flush) for the events
 * that arrive together, and nobody is answered before the commit that holds their event. Access
 * checks: one read for the checks that arrive together.
 */
export interface HotPathBatchers {
  usageEvents: Batcher<PreparedUsageEvent, UsageEvent>
  accessChecks: Batcher<AccessFactsRequest, AccessFacts>
}

export function createHotPathBatchers(prisma: DatabaseClient): HotPathBatchers {
  return {
    usageEvents: new Batcher((events) => recordUsageEvents(prisma, events), {
      isRetryable: isTransactionConflict,
      maxConcurrentBatches: 4,
      observer: observeBatches('usage_events'),
    }),
    accessChecks: new Batcher((requests) => readAccessFacts(prisma, requests), { observer: observeBatches('access_checks') }),
  }
}
