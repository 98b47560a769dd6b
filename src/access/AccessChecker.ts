import type { DatabaseClient } from '../database/createDatabaseClient'
import { Batcher } from '../domain/Batcher'
import { isTransaction, type DomainContext } from '../domain/DomainContext'
import { isolateItemFailures } from '../domain/isolateItemFailures'
import { observeBatches } from '../metrics/batcherMetrics'
import { accessFactsRequest, checkAccess, decideAccess, type AccessCheckInput, type AccessDecision } from './checkAccess'
import { readAccessFacts, type AccessFacts, type AccessFactsRequest } from './readAccessFacts'

/**
 * The access-check hot path of a process (one on Services): one read for the checks that arrive
 * together, shared by callers of every account (a batch failing for one item's sake is split until
 * that item stands alone, see isolateItemFailures).
 */
export class AccessChecker {
  private readonly batcher: Batcher<AccessFactsRequest, AccessFacts>

  constructor(prisma: DatabaseClient) {
    this.batcher = new Batcher((requests) => readAccessFacts(prisma, requests), { observer: observeBatches('access_checks'), ...isolateItemFailures })
  }

  /** Checks access: inside the caller's transaction when it holds one (reading alone, in it), else in a shared read. */
  async check(context: DomainContext, input: AccessCheckInput): Promise<AccessDecision> {
    if (isTransaction(context.db)) return checkAccess(context, input)
    return decideAccess(await this.batcher.submit(accessFactsRequest(context, input)))
  }
}
