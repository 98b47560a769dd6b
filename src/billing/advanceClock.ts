import { notifyApiKeysChanged } from '../accounts/notifyApiKeysChanged'
import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import { requireTestAccount } from '../domain/requireTestAccount'
import { runBillingCycle } from './runBillingCycle'

const maxSeconds = 10 * 366 * 86_400

/**
 * Sandbox helper (CONTRACT §7): moves a test account's clock forward and runs all billing work that
 * falls due before answering. Every process learns the new offset through the key cache's NOTIFY.
 */
export async function advanceClock(context: DomainContext, seconds: number): Promise<{ now: Date }> {
  requireTestAccount(context)
  if (!Number.isInteger(seconds) || seconds <= 0 || seconds > maxSeconds) {
    throw new DomainError('validation_error', `seconds must be a whole number from 1 to ${maxSeconds}`, { param: 'seconds' })
  }
  const account = await context.db.account.update({
    where: { id: context.account.id },
    data: { clockOffsetMs: { increment: BigInt(seconds) * 1000n } },
  })
  await notifyApiKeysChanged(context.db)
  const realNow = new Date()
  await runBillingCycle(context.db, { accountId: account.id, realNow, transactional: context.transactional ?? false })
  return { now: new Date(realNow.getTime() + Number(account.clockOffsetMs)) }
}
