import type { DomainContext } from '../domain/DomainContext'
import type { UsageEvent } from '../generated/prisma/client'
import { prepareUsageEvent, recordUsageEvents, type RecordUsageEventInput } from './recordUsageEvents'

export type { RecordUsageEventInput } from './recordUsageEvents'

// The rules (CONTRACT §3, §6), kept by billing_record_usage:
// - Usage is a fact: it is recorded whenever customer and meter exist, whatever the balance.
// - When a credits price applies, its cost is debited through the ledger in the same transaction;
//   the balance may go below zero only this way (the next purchase pays the debt first).
// - `idempotencyKey` is unique per account: a repeat with the same payload returns the original event
//   and debits nothing; the same key with another payload is 422.

/**
 * Records one usage event: in the caller's transaction when it holds one, else through the process's
 * group-commit batcher, which shares one commit among events that arrive together.
 */
export async function recordUsageEvent(context: DomainContext, input: RecordUsageEventInput): Promise<UsageEvent> {
  const prepared = prepareUsageEvent(context, input)
  if (context.batchers && !context.transactional) return context.batchers.usageEvents.submit(prepared)
  const [outcome] = await recordUsageEvents(context.db, [prepared])
  if (!outcome) throw new Error('billing_record_usage answered no row')
  if ('error' in outcome) throw outcome.error
  return outcome.value
}
