import type { Caller } from '../accounts/authenticateApiKey'
import { requireScope, type Scope } from '../accounts/scopes'
import type { Services } from '../Services'
import { accountClock, type Clock, type Database, type DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'

/**
 * What a GraphQL request carries. `db` is the root client, or the transaction of an idempotent REST
 * request whose writes must commit together with its stored response.
 */
export interface GraphQLContext {
  services: Services
  db: Database
  /** True when `db` is the transaction of an idempotent REST request. */
  transactional: boolean
  clock: Clock
  requestId: string
  /** The authenticated caller; undefined with `authenticationFailure` set when the key was refused. */
  caller: Caller | undefined
  authenticationFailure: DomainError | undefined
  /** Per-request batch loaders (one per nested list and page), so nested connections are not N+1. */
  loaders: Map<string, unknown>
}

/**
 * The domain context for a field that accepts `scopes`. The same rule as REST: no key (or a refused
 * one) is 401, a key without any accepted scope is 403.
 */
export function authorize(context: GraphQLContext, scopes: readonly Scope[]): DomainContext {
  const caller = context.caller
  if (!caller) {
    throw context.authenticationFailure ?? new DomainError('unauthorized', 'A valid API key is required: send "Authorization: Bearer <key>"')
  }
  requireScope(caller.scopes, scopes)
  return {
    db: context.db,
    clock: accountClock(caller.account),
    account: caller.account,
    transactional: context.transactional,
    ...(context.transactional ? {} : { batchers: context.services.batchers }),
  }
}
