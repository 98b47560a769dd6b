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

// The billing clock's work, in the order that matters, each part safe to run any number of times and
// from any number of processes at once:
// 1. open invoices past their due date turn their active subscription past_due;
// 2. a past_due subscription whose period ended is not renewed: its entitlement expires;
// 3. every active subscription whose period ended is renewed: the next period's invoice (its fee and
//    the closed period's usage) is issued and the period moves on, in one transaction per batch.
//    Exactly once: due subscriptions are claimed with FOR UPDATE SKIP LOCKED, the period moves in the
//    same transaction as the invoice, and (subscription, period start) is unique. A process that dies
//    mid-run loses only its open transaction; the next run picks those subscriptions up again.

export async function runBillingCycle(db: Database, options: BillingCycleOptions = {}): Promise<BillingCycleResult> {
  const realNow = options.realNow ?? new Date()
  const transactional = options.transactional ?? false
  const onlyAccount = options.accountId ? Prisma.sql`AND subscription."accountId" = ${options.accountId}` : Prisma.empty
  const accountNow = Prisma.sql`(${realNow}::timestamptz + account."clockOffsetMs" * interval '1 millisecond')`

  const pastDue = await runInTransaction(db, transactional, (transaction) =>
    transaction.$executeRaw(Prisma.sql`
      WITH overdue AS (
        UPDATE "Subscription" subscription SET status = 'past_due'
        FROM "Account" account
        WHERE account.id = subscription."accountId" AND subscription.status = 'active' ${onlyAccount}
          AND EXISTS (SELECT 1 FROM "Invoice" invoice
            WHERE invoice."subscriptionId" = subscription.id AND invoice.status = 'open' AND invoice."dueDate" < ${accountNow})
        RETURNING subscription.id)
      UPDATE "Entitlement" entitlement SET status = 'past_due' FROM overdue WHERE entitlement."subscriptionId" = overdue.id`),
  )

  const expired = await runInTransaction(db, transactional, (transaction) =>
    transaction.$executeRaw(Prisma.sql`
      UPDATE "Entitlement" entitlement SET status = 'expired'
      FROM "Subscription" subscription JOIN "Account" account ON account.id = subscription."accountId"
      WHERE entitlement."subscriptionId" = subscription.id AND subscription.status = 'past_due'
        AND subscription."currentPeriodEnd" <= ${accountNow} AND entitlement.status <> 'expired' ${onlyAccount}`),
  )

  let renewed = 0
  for (;;) {
    const count = await runInTransaction(db, transactional, async (transaction) => {
      const due = await transaction.$queryRaw<{ id: string; accountNow: Date }[]>(Prisma.sql`
        SELECT subscription.id, ${accountNow} AS "accountNow"
        FROM "Subscription" subscription JOIN "Account" account ON account.id = subscription."accountId"
        WHERE subscription.status = 'active' AND subscription."currentPeriodEnd" <= ${accountNow} ${onlyAccount}
        ORDER BY subscription."currentPeriodEnd", subscription.id
        LIMIT ${options.batchSize ?? 50}
        FOR UPDATE OF subscription SKIP LOCKED`)
      for (const { id, accountNow: now } of due) await renewSubscription(transaction, id, new Date(now))
      return due.length
    })
    renewed += count
    if (count === 0) break
  }
  return { renewed, pastDue, expired }
}

async function renewSubscription(db: Database, subscriptionId: string, now: Date): Promise<void> {
  const subscription = await db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { price: true, product: true } })
  const start = subscription.currentPeriodEnd
  const end = nextPeriodEnd(subscription.billingAnchor, subscription.price.interval ?? 'month', start)
  await issueInvoice(db, {
    subscription,
    period: { start, end },
    usagePeriod: { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
    collection: 'automatic',
    now,
  })
  const renewed = await db.subscription.update({ where: { id: subscription.id }, data: { currentPeriodStart: start, currentPeriodEnd: end } })
  await syncSubscriptionEntitlement(db, renewed, 'active', now)
}
