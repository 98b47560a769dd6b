import { Prisma } from '../generated/prisma/client'
import type { UsageEvent } from '../generated/prisma/client'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { findCreditsPrice } from '../metering/findCreditsPrice'
import { getMeter } from '../metering/getMeter'
import { recordUsageEvent, type RecordUsageEventInput } from '../metering/recordUsageEvent'
import { checkAccess, type AccessDecision } from './checkAccess'

export interface ConsumeResult extends AccessDecision {
  /** The recorded event when allowed; null when denied (nothing was recorded or debited). */
  event: UsageEvent | null
}

/**
 * Atomic check-and-debit *(extension)*: the access check and the usage event in one transaction,
 * under a lock on the customer's balance row, so that concurrent uses can never spend the same credits
 * twice and a balance never goes below zero this way. A retry with the same idempotencyKey returns
 * the event it recorded the first time.
 */
export async function consumeAccess(context: DomainContext, input: RecordUsageEventInput): Promise<ConsumeResult> {
  return inTransaction(context, async (transaction) => {
    const earlier = await transaction.db.usageEvent.findUnique({
      where: { accountId_idempotencyKey: { accountId: transaction.account.id, idempotencyKey: input.idempotencyKey } },
    })
    if (earlier) return { allowed: true, reason: 'credits_available', event: await recordUsageEvent(transaction, input) }
    const meter = await getMeter(transaction, input.meterId)
    const price = await findCreditsPrice(transaction, meter.id)
    if (price) {
      // Serialises every consume (and every debit) of this customer and currency until commit.
      await transaction.db.$queryRaw(
        Prisma.sql`SELECT 1 FROM "CreditBalance" WHERE "customerId" = ${input.customerId} AND "currency" = ${price.currency}::"Currency" FOR UPDATE`,
      )
    }
    const decision = await checkAccess(transaction, input)
    if (!decision.allowed) return { ...decision, event: null }
    return { ...decision, event: await recordUsageEvent(transaction, input) }
  })
}
