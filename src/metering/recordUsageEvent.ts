import type { TransactionContext } from '../domain/DomainContext'
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
 * Records one usage event in the caller's transaction (consumeAccess, an idempotent request). Outside
 * a transaction, events go through the process's UsageEventRecorder, which shares one commit among
 * events that arrive together.
 */
export async function recordUsageEvent(context: TransactionContext, input: RecordUsageEventInput): Promise<UsageEvent> {
  const [outcome] = await recordUsageEvents(context.db, [prepareUsageEvent(context, input)])
  if (!outcome) throw new Error('billing_record_usage answered no row')
  if ('error' in outcome) throw outcome.error
  return outcome.value
}
