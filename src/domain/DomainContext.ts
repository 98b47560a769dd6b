import type { DatabaseClient } from '../database/createDatabaseClient'
import type { UsageEventBatcher } from '../metering/UsageEventBatcher'

/** The root client, or the client of a transaction that is already open. */
export type Database = DatabaseClient | Omit<DatabaseClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>

export interface Clock {
  now(): Date
}

export interface AccountScope {
  id: string
  mode: 'test' | 'live'
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
  /** Shares commits among usage events recorded outside a transaction (absent: each commits alone). */
  usageBatcher?: UsageEventBatcher
}

export const systemClock: Clock = { now: () => new Date() }

const transactionTimeoutMilliseconds = 30_000

/**
 * Runs `work` in one database transaction: the caller's, when it already holds one, so that an
 * operation called inside a larger unit of work (an idempotent request) commits with it.
 */
export async function inTransaction<T>(context: DomainContext, work: (context: DomainContext) => Promise<T>): Promise<T> {
  // A transaction client has a $transaction method at run time too, so the flag, not the method, decides.
  if (context.transactional) return work(context)
  const root = context.db as DatabaseClient
  return root.$transaction((transaction) => work({ ...context, db: transaction, transactional: true }), {
    timeout: transactionTimeoutMilliseconds,
  })
}
