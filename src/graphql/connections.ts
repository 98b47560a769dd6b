import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { ListPosition, Page, PageRequest } from '../domain/Page'
import { decodeCursor, encodeCursor, type CursorScope } from './cursors'
import type { Scope } from '../accounts/scopes'
import { authorize, type GraphQLContext } from './GraphQLContext'

// Every list is a Relay connection with forward paging only (`first`, `after`), newest first; REST's
// `limit`/`before`/`cursor` are these same arguments, and `nextCursor` is `pageInfo.endCursor`.

export interface PageSizeLimits {
  defaultSize: number
  maxSize: number
  minSize?: number
}

export const standardPageSize: PageSizeLimits = { defaultSize: 100, maxSize: 500, minSize: 1 }

export interface ConnectionArguments {
  first?: number | null
  after?: string | null
}

function cursorScope(context: GraphQLContext, domain: DomainContext, list: string): CursorScope {
  return { secret: context.services.signingSecret, list, accountId: domain.account.id }
}

/** The page a connection field asks for; sizes outside the list's range are refused, never clamped. */
export function readPageRequest(
  context: GraphQLContext,
  domain: DomainContext,
  list: string,
  args: ConnectionArguments,
  limits: PageSizeLimits = standardPageSize,
): PageRequest {
  const limit = args.first ?? limits.defaultSize
  const minSize = limits.minSize ?? 1
  if (!Number.isInteger(limit) || limit < minSize || limit > limits.maxSize) {
    throw new DomainError('validation_error', `first must be a whole number from ${minSize} to ${limits.maxSize}`, { param: 'first' })
  }
  const after = args.after == null ? undefined : decodeCursor(cursorScope(context, domain, list), args.after, 'after')
  return after ? { limit, after } : { limit }
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[]
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }
}

export function toConnection<T extends ListPosition>(
  context: GraphQLContext,
  domain: DomainContext,
  list: string,
  page: Page<T>,
): Connection<T> {
  const scope = cursorScope(context, domain, list)
  const edges = page.items.map((node) => ({ cursor: encodeCursor(scope, node), node }))
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasMore,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      // Relay: the last edge's cursor whenever there are edges. REST's `nextCursor` is null without a
      // next page (CONTRACT §4); the REST bridge decides that from `hasNextPage`.
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  }
}

/**
 * A connection field's whole resolver: authorize, read the page arguments, list, wrap. `list` names the
 * list for its cursors (a cursor of one list is refused by every other).
 */
export async function resolveConnection<T extends ListPosition>(
  context: GraphQLContext,
  scopes: readonly Scope[],
  list: string,
  args: ConnectionArguments,
  read: (domain: DomainContext, page: PageRequest) => Promise<Page<T>>,
  limits: PageSizeLimits = standardPageSize,
): Promise<Connection<T>> {
  const domain = authorize(context, scopes)
  return toConnection(context, domain, list, await read(domain, readPageRequest(context, domain, list, args, limits)))
}
