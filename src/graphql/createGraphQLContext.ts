import type { Caller } from '../accounts/authenticateApiKey'
import { authenticateCaller } from '../accounts/authenticateCaller'
import type { Services } from '../Services'
import { classifyError } from '../domain/classifyError'
import { accountClock, systemClock, type Transaction } from '../domain/DomainContext'
import type { DomainError } from '../domain/DomainError'
import type { GraphQLContext } from './GraphQLContext'
import { defaultQueryLimits } from './queryLimits'

export interface ContextSource {
  services: Services
  requestId: string
  /** Set when the caller was already authenticated (REST); otherwise the header is checked here. */
  caller?: Caller
  authorization?: string | null
  /** The transaction the request runs in, when it has one. */
  db?: Transaction
  /** The response's byte budget (GRAPHQL_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number
}

export async function createGraphQLContext(source: ContextSource): Promise<GraphQLContext> {
  const db = source.db ?? source.services.database.prisma
  let caller = source.caller
  let authenticationFailure: DomainError | undefined
  // No header is not an error yet: introspection and GraphiQL need no key; every data field asks for one.
  if (!caller && source.authorization) {
    try {
      caller = await authenticateCaller(source.services, source.authorization)
    } catch (error) {
      caller = undefined
      authenticationFailure = classifyError(error)
    }
  }
  return { services: source.services, db, clock: caller ? accountClock(caller.account) : systemClock, requestId: source.requestId, caller, authenticationFailure, loaders: new Map(), responseBytesLeft: source.maxResponseBytes ?? defaultQueryLimits.maxResponseBytes }
}
