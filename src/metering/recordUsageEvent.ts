import { createHash } from 'node:crypto'
import { getCustomer } from '../customers/getCustomer'
import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { costOf, parseQuantity } from '../domain/money'
import { validateMetadata, validateText } from '../domain/validateMetadata'
import type { UsageEvent } from '../generated/prisma/client'
import { findCreditsPrice } from './findCreditsPrice'
import { getMeter } from './getMeter'
import { unitsFor } from './unitsFor'

export interface RecordUsageEventInput {
  customerId: string
  meterId: string
  quantity: number
  idempotencyKey: string
  metadata?: Record<string, unknown> | null
}

// The rules (CONTRACT §3, §6):
// - Usage is a fact: it is recorded whenever customer and meter exist, whatever the balance.
// - When a credits price applies, its cost is debited through the ledger in the same transaction;
//   the balance may go below zero only this way (the next purchase pays the debt first).
// - `idempotencyKey` is unique per account: a repeat with the same payload returns the original event
//   and debits nothing; the same key with another payload is 422. Concurrent repeats are settled by the
//   unique index (ON CONFLICT DO NOTHING waits for the first insert to commit or roll back).

export async function recordUsageEvent(context: DomainContext, input: RecordUsageEventInput): Promise<UsageEvent> {
  const quantity = parseQuantity(input.quantity)
  const idempotencyKey = validateText(input.idempotencyKey, 'idempotencyKey', 255)
  const metadata = input.metadata == null ? null : validateMetadata(input.metadata)
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([input.customerId, input.meterId, quantity.toFixed(), metadata === null ? null : sortKeys(metadata)]))
    .digest('hex')

  const earlier = await findByKey(context, idempotencyKey)
  if (earlier) return replay(earlier, fingerprint)

  return inTransaction(context, async (transaction) => {
    const { db, account, clock } = transaction
    const customer = await getCustomer(transaction, input.customerId)
    const meter = await getMeter(transaction, input.meterId)
    const price = await findCreditsPrice(transaction, meter.id)
    const cost = price ? costOf(unitsFor(meter, quantity), price.amount, price.currency) : null
    const now = clock.now()
    const id = createId('UsageEvent')
    const inserted = await db.usageEvent.createMany({
      data: {
        id,
        accountId: account.id,
        customerId: customer.id,
        meterId: meter.id,
        quantity,
        idempotencyKey,
        fingerprint,
        metadata: metadata as object,
        cost,
        costCurrency: price?.currency ?? null,
        createdAt: now,
      },
      skipDuplicates: true,
    })
    if (inserted.count === 0) {
      const concurrent = await findByKey(transaction, idempotencyKey)
      if (!concurrent) throw new Error('usage event key conflict without a committed event')
      return replay(concurrent, fingerprint)
    }
    if (price && cost && cost.greaterThan(0)) {
      await db.creditLedgerEntry.create({
        data: {
          id: createId('CreditLedgerEntry'),
          accountId: account.id,
          customerId: customer.id,
          currency: price.currency,
          amount: cost.negated(),
          kind: 'debit',
          description: `${quantity.toFixed()} × ${meter.slug}`,
          usageEventId: id,
          createdAt: now,
        },
      })
    }
    return db.usageEvent.findUniqueOrThrow({ where: { id } })
  })
}

function findByKey(context: DomainContext, idempotencyKey: string): Promise<UsageEvent | null> {
  return context.db.usageEvent.findUnique({ where: { accountId_idempotencyKey: { accountId: context.account.id, idempotencyKey } } })
}

function replay(event: UsageEvent, fingerprint: string): UsageEvent {
  if (event.fingerprint !== fingerprint) {
    throw new DomainError('idempotency_key_reused', 'This idempotencyKey was used for a different usage event', { param: 'idempotencyKey' })
  }
  return event
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, item]) => [key, sortKeys(item)]))
  }
  return value
}
