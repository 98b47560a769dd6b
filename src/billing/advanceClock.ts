import { notifyApiKeysChanged } from '../accounts/notifyApiKeysChanged'
import { DomainError } from '../domain/DomainError'
import { runInTransaction, type DomainContext } from '../domain/DomainContext'
import { requireTestAccount } from '../domain/requireTestAccount'
import { runBillingCycle } from './runBillingCycle'

const maxSeconds = 10 * 366 * 86_400
/** The shortest billing period (a calendar month) can be no shorter than this. */
const shortestPeriodSeconds = 28 * 86_400
/**
 * Billing periods one call may run at most (each is an invoice, in one transaction): what a client
 * waits for stays in seconds, and a request cannot start minutes of work that outlive it.
 */
export const maxPeriodsPerAdvance = 500

/**
 * Sandbox helper (CONTRACT §7): moves a test account's clock forward and runs all billing work that
 * falls due before answering. Every process learns the new offset through the key cache's NOTIFY.
 */
export async function advanceClock(context: DomainContext, seconds: number): Promise<{ now: Date }> {
  requireTestAccount(context)
  if (!Number.isInteger(seconds) || seconds <= 0 || seconds > maxSeconds) {
    throw new DomainError('validation_error', `seconds must be a whole number from 1 to ${maxSeconds}`, { param: 'seconds' })
  }
  await requireBoundedWork(context, seconds)
  // The new offset and the NOTIFY that makes every process drop the keys cached with the old one are
  // one transaction: neither commits without the other. Billing then runs in its own transactions.
  const account = await runInTransaction(context.db, async (db) => {
    const moved = await db.account.update({ where: { id: context.account.id }, data: { clockOffsetMs: { increment: BigInt(seconds) * 1000n } } })
    await notifyApiKeysChanged(db)
    return moved
  })
  const realNow = new Date()
  await runBillingCycle(context.db, { accountId: account.id, realNow })
  return { now: new Date(realNow.getTime() + Number(account.clockOffsetMs)) }
}

/**
 * Bounds the work before any is done: every subscription that can still renew may bill one period per
 * shortest period length in the advance. Over the bound, nothing moves and the error says how far one
 * call may go.
 */
async function requireBoundedWork(context: DomainContext, seconds: number): Promise<void> {
  const subscriptions = await context.db.subscription.count({
    where: { accountId: context.account.id, status: { in: ['trialing', 'active', 'past_due'] } },
  })
  const periods = subscriptions * Math.ceil(seconds / shortestPeriodSeconds)
  if (periods <= maxPeriodsPerAdvance) return
  const allowedSeconds = Math.max(1, Math.floor(maxPeriodsPerAdvance / subscriptions)) * shortestPeriodSeconds
  throw new DomainError(
    'validation_error',
    `Advancing ${seconds} seconds could bill up to ${periods} periods for ${subscriptions} subscriptions; one call bills at most ${maxPeriodsPerAdvance}: advance at most ${allowedSeconds} seconds per call`,
    { param: 'seconds', details: { maxPeriodsPerAdvance, maxSecondsPerCall: allowedSeconds } },
  )
}
