import { runInTransaction, type Database } from '../domain/DomainContext'
import { syncSubscriptionEntitlement } from '../entitlements/syncSubscriptionEntitlement'
import { Prisma } from '../generated/prisma/client'
import { issueInvoice } from '../invoices/issueInvoice'
import { nextPeriodEnd } from '../subscriptions/billingPeriods'

export interface BillingCycleOptions {
  /** Only this account's subscriptions (the clock helper); all accounts when absent. */
  accountId?: string
  /** Real time; each account's clock is this plus its offset. */
  realNow?: Date
  /** True when `db` is already a transaction (everything then happens in it). */
  transactional?: boolean
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

export async function runBillingCycle(db: Database, options: BillingCycleOptions = {}): Promise<BillingCycleResult> {
  const realNow = options.realNow ?? new Date()
  const transactional = options.transactional ?? false
  const onlyAccount = options.accountId ? Prisma.sql`AND subscription."accountId" = ${options.accountId}` : Prisma.empty
  const accountNow = Prisma.sql`(${realNow}::timestamptz + account."clockOffsetMs" * interval '1 millisecond')`

  const result: BillingCycleResult = { renewed: 0, pastDue: 0, expired: 0 }
  for (;;) {
    const count = await runInTransaction(db, transactional, async (transaction) => {
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

  result.expired = await runInTransaction(db, transactional, (transaction) =>
    transaction.$executeRaw(Prisma.sql`
      UPDATE "Entitlement" entitlement SET status = 'expired'
      FROM "Subscription" subscription JOIN "Account" account ON account.id = subscription."accountId"
      WHERE entitlement."subscriptionId" = subscription.id AND subscription.status = 'past_due'
        AND subscription."currentPeriodEnd" <= ${accountNow} AND entitlement.status <> 'expired' ${onlyAccount}`),
  )
  return result
}

/**
 * The earliest billing event of one claimed active subscription that falls due by `now`. One event per
 * claim keeps each transaction to at most a batch of renewals however far behind a subscription is;
 * the claiming loop comes back for the next one, in time order, until nothing is due.
 */
async function takeNextBillingStep(db: Database, subscriptionId: string, now: Date): Promise<'renewed' | 'pastDue' | 'none'> {
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
    await syncSubscriptionEntitlement(db, moved, 'past_due', overdue.dueDate)
    return 'pastDue'
  }
  if (!periodEnded) return 'none'
  await renewSubscription(db, subscription)
  return 'renewed'
}

/** The renewal as it happens on time: issued at the new period's start, which is also what its due date counts from. */
async function renewSubscription(db: Database, subscription: Prisma.SubscriptionGetPayload<{ include: { price: true; product: true } }>): Promise<void> {
  const start = subscription.currentPeriodEnd
  const end = nextPeriodEnd(subscription.billingAnchor, subscription.price.interval ?? 'month', start)
  await issueInvoice(db, {
    subscription,
    period: { start, end },
    usagePeriod: { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
    collection: 'automatic',
    now: start,
  })
  const renewed = await db.subscription.update({ where: { id: subscription.id }, data: { currentPeriodStart: start, currentPeriodEnd: end } })
  await syncSubscriptionEntitlement(db, renewed, 'active', start)
}
