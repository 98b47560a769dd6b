import type { DatabaseClient } from '../database/createDatabaseClient'
import type { HotPathBatchers } from '../createHotPathBatchers'

/** The root client, or the client of a transaction that is already open. */
export type Database = DatabaseClient | Omit<DatabaseClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>

export interface Clock {
  now(): Date
}

export interface AccountScope {
  id: string
  mode: 'test' | 'live'
  /** How far the account's clock runs ahead of real time: 0 for live accounts, moved by the sandbox helper on test accounts. */
  clockOffsetMs: number
}

/**
 * What every domain operation receives besides its input: where to read and write, what time it is,
 * and whose data it may touch. Operations know nothing of GraphQL or HTTP.
 */
export interface DomainContext {
  db: Database
  clock: Clock
  account: AccountScope
  /** True when `db` is a transaction already open: operations then join it instead of opening their own. */
  transactional?: boolean
  /** Shares commits and reads among hot-path calls made outside a transaction (absent: each goes alone). */
  batchers?: HotPathBatchers
}

export const systemClock: Clock = { now: () => new Date() }

/** The clock of an account: real time, moved ahead by the account's offset. */
export function accountClock(account: Pick<AccountScope, 'clockOffsetMs'>): Clock {
  return account.clockOffsetMs === 0 ? systemClock : { now: () => new Date(Date.now() + account.clockOffsetMs) }
}

const transactionTimeoutMilliseconds = 30_000

/**
 * Runs `work` in one database transaction: the caller's, when it already holds one, so that an
 * operation called inside a larger unit of work (an idempotent request) commits with it.
 */
export async function inTransaction<T>(context: DomainContext, work: (context: DomainContext) => Promise<T>): Promise<T> {
  return runInTransaction(context.db, context.transactional ?? false, (db) => work({ ...context, db, transactional: true }))
}

/** The same for work that has a database but no account (the billing runner). */
export async function runInTransaction<T>(db: Database, transactional: boolean, work: (db: Database) => Promise<T>): Promise<T> {
  // A transaction client has a $transaction method at run time too, so the flag, not the method, decides.
  if (transactional) return work(db)
  return (db as DatabaseClient).$transaction((transaction) => work(transaction), { timeout: transactionTimeoutMilliseconds })
}

/** The context of work done for an account without an API key (hosted pages, the billing runner). */
export function contextForAccount(db: Database, account: { id: string; mode: 'test' | 'live'; clockOffsetMs: bigint | number }): DomainContext {
  const scope: AccountScope = { id: account.id, mode: account.mode, clockOffsetMs: Number(account.clockOffsetMs) }
  return { db, clock: accountClock(scope), account: scope }
}
