import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { ListPosition, Page, PageRequest } from '../domain/Page'
import { decodeCursor, decodePosition, encodeCursor, encodePosition, type CursorScope } from './cursors'
import { chargeResponse, requireCaller, type GraphQLContext } from './GraphQLContext'
import type { GraphQLResolveInfo } from 'graphql'
import type { RecordListDefinition, RecordListQuery, RecordOrder, RecordPage, RecordPageRequest } from '../domain/RecordList'
import { recordListQuery } from '../domain/recordListQuery'
import { countRecords, positionOf, readRecordPage } from '../domain/readRecordPages'
import { selectedNodeFields } from './selectedNodeFields'

// Every list is a Relay connection, newest first unless an `orderBy` says otherwise: `first`/`after`
// page forward, `last`/`before` backward; REST's `limit`/`before`/`cursor` are `first`/`after`, and
// `nextCursor` is `pageInfo.endCursor`. A cursor is signed for its list, account, filters and order.

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

export function cursorScope(context: GraphQLContext, domain: DomainContext, list: string): CursorScope {
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
  /** Counts the list (its filters, not the page's bounds) when `totalCount` is asked for. */
  totalCount?: () => Promise<number>
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
 * A connection field's whole resolver: read the page arguments, list, wrap. `list` names the list for
 * its cursors (a cursor of one list is refused by every other).
 */
export async function resolveConnection<T extends ListPosition>(
  context: GraphQLContext,
  list: string,
  args: ConnectionArguments,
  read: (domain: DomainContext, page: PageRequest) => Promise<Page<T>>,
  limits: PageSizeLimits = standardPageSize,
): Promise<Connection<T>> {
  const domain = requireCaller(context)
  return toConnection(context, domain, list, await read(domain, readPageRequest(context, domain, list, args, limits)))
}

/** Relay's four paging arguments. */
export interface PageArguments {
  first?: number | null
  after?: string | null
  last?: number | null
  before?: string | null
}

/** A list's order as a connection takes it (`orderBy: {field, direction}`); newest first by default. */
export interface OrderArgument<Field extends string> {
  field: Field
  direction: 'ASC' | 'DESC'
}

export function readOrder<Field extends string>(orderBy: OrderArgument<Field> | null | undefined): RecordOrder<Field | 'createdAt'> {
  return orderBy ? { field: orderBy.field, descending: orderBy.direction === 'DESC' } : { field: 'createdAt', descending: true }
}

/** Plain JSON with its keys sorted and empty values left out: one text per filter, whatever the argument order. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(canonical)
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, inner]) => inner !== null && inner !== undefined)
    return Object.fromEntries(entries.sort(([left], [right]) => (left < right ? -1 : 1)).map(([key, inner]) => [key, canonical(inner)]))
  }
  return value
}

/**
 * The name a list's cursors are signed for: the list, plus its filters and order when they are not the
 * default (so REST's cursors, and those of an unfiltered newest-first list, stay what they were).
 */
export function listIdentity(list: string, filter: object, order: RecordOrder<string>): string {
  const filters = canonical(filter) as Record<string, unknown>
  const isDefaultOrder = order.field === 'createdAt' && order.descending
  if (Object.keys(filters).length === 0 && isDefaultOrder) return list
  return `${list}?${JSON.stringify({ filters, order: `${order.field}:${order.descending ? 'desc' : 'asc'}` })}`
}

/** The page the paging arguments ask for; sizes outside the list's range are refused, never clamped. */
export function readRecordPageRequest(scope: CursorScope, args: PageArguments, limits: PageSizeLimits = standardPageSize): RecordPageRequest {
  if (args.first != null && args.last != null) {
    throw new DomainError('validation_error', 'Give first or last, not both', { param: 'last' })
  }
  const fromEnd = args.last != null
  const param = fromEnd ? 'last' : 'first'
  const limit = (fromEnd ? args.last : args.first) ?? limits.defaultSize
  const minSize = limits.minSize ?? 1
  if (!Number.isInteger(limit) || limit < minSize || limit > limits.maxSize) {
    throw new DomainError('validation_error', `${param} must be a whole number from ${minSize} to ${limits.maxSize}`, { param })
  }
  return {
    limit,
    fromEnd,
    ...(args.after == null ? {} : { after: decodePosition(scope, args.after, 'after') }),
    ...(args.before == null ? {} : { before: decodePosition(scope, args.before, 'before') }),
  }
}

/** A page of a record list as a Relay connection. */
export function toRecordConnection<T extends { id: string }>(
  scope: CursorScope,
  query: RecordListQuery,
  request: RecordPageRequest,
  page: RecordPage<T>,
  count: () => Promise<number>,
): Connection<T> {
  const edges = page.items.map((node) => ({ cursor: encodePosition(scope, positionOf(query, node as T & Record<string, unknown>)), node }))
  return {
    edges,
    pageInfo: {
      // The way the page was read is known exactly (one row more than the page); the other way, a
      // cursor given that way means its own item lies there (records are not deleted).
      hasNextPage: request.fromEnd ? request.before !== undefined : page.hasMore,
      hasPreviousPage: request.fromEnd ? page.hasMore : request.after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: count,
  }
}

export interface RecordConnectionOptions<T, Filter extends object, Field extends string> {
  /** The list's name, for its cursors. */
  list: string
  definition: RecordListDefinition<T, Filter, Field>
  filter: Filter
  order: RecordOrder<Field>
  args: PageArguments
  limits?: PageSizeLimits
}

/** The large columns a connection's nodes ask for (a node field named like the column). */
export function largeColumnsAsked(info: GraphQLResolveInfo, largeColumns: readonly string[]): string[] {
  const fields = selectedNodeFields(info)
  return largeColumns.filter((column) => fields === 'all' || fields.has(column))
}

/**
 * A connection over a record list (RecordList.ts): its filters and order, paging either
 * way, only the columns its nodes need, and `totalCount` counted only when asked for.
 */
export async function resolveRecordConnection<T extends { id: string }, Filter extends object, Field extends string>(
  context: GraphQLContext,
  info: GraphQLResolveInfo,
  options: RecordConnectionOptions<T, Filter, Field>,
): Promise<Connection<T>> {
  const domain = requireCaller(context)
  const scope = cursorScope(context, domain, listIdentity(options.list, options.filter, options.order))
  const request = readRecordPageRequest(scope, options.args, options.limits)
  await options.definition.check?.(domain, options.filter)
  const query = recordListQuery(options.definition, domain.account.id, options.filter, options.order)
  const page = await readRecordPage<T>(domain.db, query, request, {
    largeColumns: largeColumnsAsked(info, query.largeColumns),
    charge: (bytes) => chargeResponse(context, bytes),
  })
  return toRecordConnection(scope, query, request, page, () => countRecords(domain.db, query))
}

/** `totalCount` of every connection: how many items its list holds with its filters, counted only when asked for. */
export const totalCountDescription = 'How many items the list holds with its filters (not only this page). Counted only when asked for.'

export function countConnection(connection: { totalCount?: () => Promise<number> }): Promise<number> {
  if (!connection.totalCount) throw new DomainError('validation_error', 'This list does not count its items')
  return connection.totalCount()
}
