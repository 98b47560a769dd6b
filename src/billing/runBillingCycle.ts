import { runInTransaction, type Database, type Transaction } from '../domain/DomainContext'
import { syncSubscriptionEntitlement } from '../entitlements/syncSubscriptionEntitlement'
import { eventContextForAccount } from '../events/eventContextForAccount'
import type { EventType } from '../events/eventTypes'
import { recordEvent } from '../events/recordEvent'
import { Prisma } from '../generated/prisma/client'
import { collectInvoice } from '../invoices/collectInvoice'
import { issueInvoice } from '../invoices/issueInvoice'
import { nextPeriodEnd } from '../subscriptions/billingPeriods'

export interface BillingCycleOptions {
  /** Only this account's subscriptions (the clock helper); all accounts when absent. */
  accountId?: string
  /** Real time; each account's clock is this plus its offset. */
  realNow?: Date
  batchSize?: number
}

export interface BillingCycleResult {
  renewed: number
  pastDue: number
  expired: number
}

// The billing clock's work, each part safe to run any number of times and from any number of
// processes at once:
// 1. every active subscription with work due (its period ended, or an open invoice is past its due
//    date) replays what running on time would have done, one event per claim in time order, up to
//    the account's now: an open invoice past its due date turns it past_due (at the same instant, before
//    a renewal); a period end while active renews it (the next period's invoice, its fee and the
//    closed period's usage, issued at the period's start and due from there); once past_due it is not
//    renewed. So a runner that was down, or a test clock moved by months at once, gives exactly what
//    a runner that never stopped gives. Exactly once: due subscriptions are claimed with FOR UPDATE
//    SKIP LOCKED, the period moves in the same transaction as the invoice, and (subscription, period
//    start) is unique. A process that dies mid-run loses only its open transaction.
// 2. a past_due subscription whose period ended is not renewed: its entitlement expires.
// 3. an open checkout session past its expiry is written down as expired.
// Every change records its events in its own transaction (bulk moves return what they moved).

export async function runBillingCycle(db: Database, options: BillingCycleOptions = {}): Promise<BillingCycleResult> {
  const realNow = options.realNow ?? new Date()
  const onlyAccount = options.accountId ? Prisma.sql`AND subscription."accountId" = ${options.accountId}` : Prisma.empty
  const accountNow = Prisma.sql`(${realNow}::timestamptz + account."clockOffsetMs" * interval '1 millisecond')`

  const result: BillingCycleResult = { renewed: 0, pastDue: 0, expired: 0 }
  for (;;) {
    const count = await runInTransaction(db, async (transaction) => {
      const due = await transaction.$queryRaw<{ id: string; accountNow: Date }[]>(Prisma.sql`
        SELECT subscription.id, ${accountNow} AS "accountNow"
        FROM "Subscription" subscription JOIN "Account" account ON account.id = subscription."accountId"
        WHERE subscription.status = 'active' ${onlyAccount}
          AND (subscription."currentPeriodEnd" <= ${accountNow}
            OR EXISTS (SELECT 1 FROM "Invoice" invoice
              WHERE invoice."subscriptionId" = subscription.id AND invoice.status = 'open' AND invoice."dueDate" < ${accountNow}))
        ORDER BY subscription."currentPeriodEnd", subscription.id
        LIMIT ${options.batchSize ?? 50}
        FOR UPDATE OF subscription SKIP LOCKED`)
      for (const { id, accountNow: now } of due) {
        const step = await takeNextBillingStep(transaction, id, new Date(now))
        if (step === 'renewed') result.renewed += 1
        if (step === 'pastDue') result.pastDue += 1
      }
      return due.length
    })
    if (count === 0) break
  }

  result.expired = await runInTransaction(db, async (transaction) => {
    const moved = await transaction.$queryRaw<MovedRow[]>(Prisma.sql`
      UPDATE "Entitlement" entitlement SET status = 'expired'
      FROM "Subscription" subscription JOIN "Account" account ON account.id = subscription."accountId"
      WHERE entitlement."subscriptionId" = subscription.id AND subscription.status = 'past_due'
        AND subscription."currentPeriodEnd" <= ${accountNow} AND entitlement.status <> 'expired' ${onlyAccount}
      RETURNING 'entitlement.updated' AS type, entitlement.id, entitlement."accountId", ${accountNow} AS "accountNow"`)
    await recordMovedEvents(transaction, moved)
    return moved.length
  })

  // An open session past its expiry already reads as expired (effectiveStatus); writing it down is
  // what gives it its checkout.session.expired event, once (a conditional update).
  const onlySessionAccount = options.accountId ? Prisma.sql`AND session."accountId" = ${options.accountId}` : Prisma.empty
  await runInTransaction(db, async (transaction) => {
    const moved = await transaction.$queryRaw<MovedRow[]>(Prisma.sql`
      UPDATE "CheckoutSession" session SET status = 'expired'
      FROM "Account" account
      WHERE account.id = session."accountId" AND session.status = 'open' AND session."expiresAt" <= ${accountNow} ${onlySessionAccount}
      RETURNING 'checkout.session.expired' AS type, session.id, session."accountId", ${accountNow} AS "accountNow"`)
    await recordMovedEvents(transaction, moved)
  })
  return result
}

interface MovedRow {
  type: EventType
  id: string
  accountId: string
  accountNow: Date
}

async function recordMovedEvents(db: Transaction, rows: readonly MovedRow[]): Promise<void> {
  for (const row of rows) await recordEvent(await eventContextForAccount(db, row.accountId, new Date(row.accountNow)), row.type, { id: row.id })
}

/**
 * The earliest billing event of one claimed active subscription that falls due by `now`. One event per
 * claim keeps each transaction to at most a batch of renewals however far behind a subscription is;
 * the claiming loop comes back for the next one, in time order, until nothing is due.
 */
async function takeNextBillingStep(db: Transaction, subscriptionId: string, now: Date): Promise<'renewed' | 'pastDue' | 'none'> {
  const subscription = await db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { price: true, product: true } })
  if (subscription.status !== 'active') return 'none'
  const overdue = await db.invoice.findFirst({
    where: { subscriptionId, status: 'open', dueDate: { lt: now } },
    orderBy: { dueDate: 'asc' },
    select: { dueDate: true },
  })
  const periodEnded = subscription.currentPeriodEnd <= now
  // On time, a run after both instants marks overdue invoices before it renews: a tie goes to past_due.
  if (overdue && (!periodEnded || overdue.dueDate <= subscription.currentPeriodEnd)) {
    const moved = await db.subscription.update({ where: { id: subscription.id }, data: { status: 'past_due' } })
    const context = await eventContextForAccount(db, subscription.accountId, overdue.dueDate)
    await recordEvent(context, 'subscription.updated', moved)
    await syncSubscriptionEntitlement(context, moved, 'past_due', overdue.dueDate)
    return 'pastDue'
  }
  if (!periodEnded) return 'none'
  await renewSubscription(db, subscription)
  return 'renewed'
}

/** The renewal as it happens on time: issued at the new period's start, which is also what its due date counts from. */
async function renewSubscription(db: Transaction, subscription: Prisma.SubscriptionGetPayload<{ include: { price: true; product: true } }>): Promise<void> {
  const start = subscription.currentPeriodEnd
  const end = nextPeriodEnd(subscription.billingAnchor, subscription.price.interval ?? 'month', start)
  const context = await eventContextForAccount(db, subscription.accountId, start)
  const { invoice } = await issueInvoice(context, {
    subscription,
    period: { start, end },
    usagePeriod: { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
    now: start,
  })
  await collectInvoice(context, invoice, 'automatic')
  const renewed = await db.subscription.update({ where: { id: subscription.id }, data: { currentPeriodStart: start, currentPeriodEnd: end } })
  await recordEvent(context, 'subscription.updated', renewed)
  await syncSubscriptionEntitlement(context, renewed, 'active', start)
}
