import type { Transaction } from '../domain/DomainContext'
import type { EventContext } from './recordEvent'

/** For work done across accounts (the billing runner): the account as events need it, at a given time on its clock. */
export async function eventContextForAccount(db: Transaction, accountId: string, now: Date): Promise<EventContext> {
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { id: true, mode: true, clockOffsetMs: true } })
  return { db, account: { id: account.id, mode: account.mode, clockOffsetMs: Number(account.clockOffsetMs) }, clock: { now: () => now } }
}
