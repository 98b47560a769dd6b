import { readAccessFacts, type AccessFacts, type AccessFactsRequest } from './access/readAccessFacts'
import type { DatabaseClient } from './database/createDatabaseClient'
import { isDataException } from './database/isDataException'
import { isDatabaseUnavailable } from './database/isDatabaseUnavailable'
import { Batcher, isTransactionConflict, type BatcherOptions } from './domain/Batcher'
import { DomainError } from './domain/DomainError'
import type { UsageEvent } from './generated/prisma/client'
import { observeBatches } from './metrics/batcherMetrics'
import { recordUsageEvents, type PreparedUsageEvent } from './metering/recordUsageEvents'

/**
 * The hot paths' batchers. Usage events: group commit, one transaction (one WAL flush) for the events
 * that arrive together, and nobody is answered before the commit that holds their event. Access
 * checks: one read for the checks that arrive together. Callers of every account share them, so a
 * batch that fails for one item's sake is split until that item stands alone: it alone fails (a 400
 * when PostgreSQL refused its values), the others commit.
 */
export interface HotPathBatchers {
  usageEvents: Batcher<PreparedUsageEvent, UsageEvent>
  accessChecks: Batcher<AccessFactsRequest, AccessFacts>
}

const perItemFailures: BatcherOptions = {
  isIsolatable: (error) => !isDatabaseUnavailable(error) && !(error instanceof DomainError),
  describeItemFailure: (error) =>
    isDataException(error) ? new DomainError('validation_error', 'The database refused a value of this request (out of range or not storable text)') : error,
}

export function createHotPathBatchers(prisma: DatabaseClient): HotPathBatchers {
  return {
    usageEvents: new Batcher((events) => recordUsageEvents(prisma, events), {
      isRetryable: isTransactionConflict,
      maxConcurrentBatches: 4,
      observer: observeBatches('usage_events'),
      ...perItemFailures,
    }),
    accessChecks: new Batcher((requests) => readAccessFacts(prisma, requests), { observer: observeBatches('access_checks'), ...perItemFailures }),
  }
}
