import { createHash } from 'node:crypto'
import { DomainError } from '../domain/DomainError'
import { canonicalJson } from '../domain/canonicalJson'
import type { Database, DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { parseQuantity, type Currency } from '../domain/money'
import { validateMetadata, validateText } from '../domain/validateMetadata'
import { Prisma, type UsageEvent } from '../generated/prisma/client'

export interface RecordUsageEventInput {
  customerId: string
  meterId: string
  quantity: number
  idempotencyKey: string
  metadata?: Record<string, unknown> | null
}

/** A usage event checked and stamped, ready for billing_record_usage (prisma/migrations/…_hot_path_functions). */
export interface PreparedUsageEvent {
  id: string
  accountId: string
  customerId: string
  meterId: string
  /** Exact decimal text: a quantity never passes through SQL as a float. */
  quantity: string
  idempotencyKey: string
  fingerprint: string
  metadata: Record<string, unknown> | null
  createdAt: string
}

/** Validates and stamps an event. The fingerprint is what a retry must repeat: customer, meter, quantity, metadata. */
export function prepareUsageEvent(context: DomainContext, input: RecordUsageEventInput): PreparedUsageEvent {
  const quantity = parseQuantity(input.quantity).toFixed()
  const idempotencyKey = validateText(input.idempotencyKey, 'idempotencyKey', 255)
  const metadata = input.metadata == null ? null : validateMetadata(input.metadata)
  const fingerprint = createHash('sha256').update(canonicalJson([input.customerId, input.meterId, quantity, metadata])).digest('hex')
  return {
    id: createId('UsageEvent'),
    accountId: context.account.id,
    customerId: input.customerId,
    meterId: input.meterId,
    quantity,
    idempotencyKey,
    fingerprint,
    metadata,
    createdAt: context.clock.now().toISOString(),
  }
}

interface OutcomeRow {
  ord: number
  outcome: 'recorded' | 'replayed' | 'key_reused' | 'customer_not_found' | 'meter_not_found'
  id: string | null
  accountId: string
  customerId: string
  meterId: string
  quantity: Prisma.Decimal
  idempotencyKey: string
  fingerprint: string
  metadata: Prisma.JsonValue
  cost: Prisma.Decimal | null
  costCurrency: Currency | null
  createdAt: Date
}

export type UsageOutcome = { value: UsageEvent } | { error: DomainError }

/**
 * Records a batch in the caller's transaction (or in one of its own: one statement commits atomically)
 * and answers each input in order. Every write path of usage events ends here.
 */
export async function recordUsageEvents(db: Database, events: readonly PreparedUsageEvent[]): Promise<UsageOutcome[]> {
  const payload = JSON.stringify(events.map((event, ord) => ({ ...event, ord })))
  const rows = await db.$queryRaw<OutcomeRow[]>(Prisma.sql`SELECT * FROM billing_record_usage(${payload}::jsonb)`)
  return rows.map((row) => toOutcome(row))
}

function toOutcome(row: OutcomeRow): UsageOutcome {
  switch (row.outcome) {
    case 'customer_not_found':
      return { error: new DomainError('customer_not_found', 'No such customer', { param: 'customerId' }) }
    case 'meter_not_found':
      return { error: new DomainError('meter_not_found', 'No such meter', { param: 'meterId' }) }
    case 'key_reused':
      return { error: new DomainError('idempotency_key_reused', 'This idempotencyKey was used for a different usage event', { param: 'idempotencyKey' }) }
    default:
      return {
        value: {
          id: row.id!,
          accountId: row.accountId,
          customerId: row.customerId,
          meterId: row.meterId,
          quantity: new Prisma.Decimal(row.quantity),
          idempotencyKey: row.idempotencyKey,
          fingerprint: row.fingerprint,
          metadata: row.metadata,
          cost: row.cost === null ? null : new Prisma.Decimal(row.cost),
          costCurrency: row.costCurrency,
          createdAt: new Date(row.createdAt),
        },
      }
  }
}
