import type { DatabaseClient } from '../database/createDatabaseClient'

declare const openTransaction: unique symbol

/**
 * The client of a database transaction that is open. Only `runInTransaction` makes one, so a function
 * that takes a `Transaction` (or a `TransactionContext`) is sure to run inside one: the compiler refuses
 * the root client there.
 */
export type Transaction = Omit<DatabaseClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'> & { readonly [openTransaction]: true }

/** The root client, or a transaction that is already open. */
export type Database = DatabaseClient | Transaction

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
 * and whose data it may touch. Operations know nothing of GraphQL or HTTP. When `db` is a transaction
 * already open, operations join it instead of opening their own.
 */
export interface DomainContext {
  db: Database
  clock: Clock
  account: AccountScope
}

/** A domain context whose work happens inside an open transaction. */
export interface TransactionContext extends DomainContext {
  db: Transaction
}

export const systemClock: Clock = { now: () => new Date() }

/** The clock of an account: real time, moved ahead by the account's offset. */
export function accountClock(account: Pick<AccountScope, 'clockOffsetMs'>): Clock {
  return account.clockOffsetMs === 0 ? systemClock : { now: () => new Date(Date.now() + account.clockOffsetMs) }
}

const transactionTimeoutMilliseconds = 30_000

// A transaction client has a $transaction method at run time too, so the method cannot tell them apart:
// the clients runInTransaction handed out are remembered instead.
const openTransactions = new WeakSet<object>()

/** True when `db` is a transaction that runInTransaction opened (and the caller's work runs in it). */
export function isTransaction(db: Database): db is Transaction {
  return openTransactions.has(db)
}

/**
 * Runs `work` in one database transaction: the caller's, when it already holds one, so that an
 * operation called inside a larger unit of work (an idempotent request) commits with it.
 */
export async function inTransaction<T>(context: DomainContext, work: (context: TransactionContext) => Promise<T>): Promise<T> {
  return runInTransaction(context.db, (db) => work({ ...context, db }))
}

/** The same for work that has a database but no account (the billing runner, idempotent requests). */
export async function runInTransaction<T>(db: Database, work: (transaction: Transaction) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return work(db)
  return db.$transaction(
    (client) => {
      openTransactions.add(client)
      // The one place a transaction client becomes a Transaction.
      return work(client as unknown as Transaction)
    },
    { timeout: transactionTimeoutMilliseconds },
  )
}

/** The context of work done for an account without an API key (hosted pages, the billing runner). */
export function contextForAccount<D extends Database>(db: D, account: { id: string; mode: 'test' | 'live'; clockOffsetMs: bigint | number }): DomainContext & { db: D } {
  const scope: AccountScope = { id: account.id, mode: account.mode, clockOffsetMs: Number(account.clockOffsetMs) }
  return { db, clock: accountClock(scope), account: scope }
}
