import type { Caller } from '../accounts/authenticateApiKey'
import { requireScope, type Scope } from '../accounts/scopes'
import type { Services } from '../Services'
import { accountClock, type Clock, type Database, type DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { whenRequestFinishes } from '../logging/requestScope'

/**
 * What a GraphQL request carries. `db` is the root client, or the transaction of an idempotent REST
 * request whose writes must commit together with its stored response.
 */
export interface GraphQLContext {
  services: Services
  db: Database
  clock: Clock
  requestId: string
  /** The authenticated caller; undefined with `authenticationFailure` set when the key was refused. */
  caller: Caller | undefined
  authenticationFailure: DomainError | undefined
  /** Per-request batch loaders (one per nested list and page), so nested connections are not N+1. */
  loaders: Map<string, unknown>
  /** Bytes the response may still take (GRAPHQL_MAX_RESPONSE_BYTES); lists charge their rows before reading them. */
  responseBytesLeft: number
}

/**
 * Takes `bytes` from the response's budget, or refuses: a response too large for the budget fails with
 * a clear error before its rows are read, instead of exhausting the server's memory. The bytes are also
 * taken from the process's budget of responses in flight until the response is sent; past it, 503
 * `unavailable` with Retry-After (many large responses at once, each within its own budget).
 */
export function chargeResponse(context: GraphQLContext, bytes: number): void {
  if (bytes > context.responseBytesLeft) {
    context.responseBytesLeft = 0
    throw new DomainError('validation_error', 'This response would be too large: ask for smaller pages, fewer nested lists or leave out metadata', { param: 'first' })
  }
  const inFlight = context.services.responseBytesInFlight
  const holder = context.caller?.account.id ?? 'no account'
  if (!inFlight.tryTake(bytes, holder)) {
    throw new DomainError('unavailable', 'The server is building too many large responses at once; retry after the time in Retry-After', { details: { retryAfterSeconds: 1 } })
  }
  // Outside an HTTP request (or after its client left) nothing is left to send: the bytes come back now.
  if (!whenRequestFinishes(() => inFlight.give(bytes, holder))) inFlight.give(bytes, holder)
  context.responseBytesLeft -= bytes
}

/**
 * The same rule as REST, for a field that declares `scopes` (fieldScopesPlugin.ts runs it before the
 * resolver): no key (or a refused one) is 401, a key without any accepted scope is 403.
 */
export function authorizeField(context: GraphQLContext, scopes: readonly Scope[]): void {
  requireScope(authenticatedCaller(context).scopes, scopes)
}

/**
 * The domain context of the caller, for resolvers that read or change the account's data. Only fields
 * that declare `scopes` may call it: the scopes are what keeps a key from data it may not touch.
 */
export function requireCaller(context: GraphQLContext): DomainContext {
  const caller = authenticatedCaller(context)
  return { db: context.db, clock: accountClock(caller.account), account: caller.account }
}

function authenticatedCaller(context: GraphQLContext): Caller {
  const caller = context.caller
  if (!caller) {
    throw context.authenticationFailure ?? new DomainError('unauthorized', 'A valid API key is required: send "Authorization: Bearer <key>"')
  }
  return caller
}
