import type { Prisma } from '../generated/prisma/client'
import type { DomainContext } from './DomainContext'

/** How a sort column's values are compared and written into cursors. */
export type SortKind = 'time' | 'decimal' | 'text'

export interface SortColumn {
  column: string
  kind: SortKind
  /** A nullable column sorts its nulls as the largest value (PostgreSQL's default, and its indexes'). */
  nullable?: boolean
}

/**
 * One list of records as SQL: the table, the rows (conditions, the account's first), the order (one
 * column, then `id` in the same direction, so every position is unique) and the columns to read.
 * Names come from code, never from input; values are always parameters.
 */
export interface RecordListQuery {
  table: string
  /** Columns always read: small ones (ids, amounts, statuses, times). */
  columns: readonly string[]
  /** Columns that can be large (JSON, up to tens of KB a row): read only when asked for. */
  largeColumns: readonly string[]
  conditions: readonly Prisma.Sql[]
  sort: SortColumn
  descending: boolean
}

/**
 * A position in a list: the sort column's value as text (ISO time, plain decimal, the text itself;
 * null when the row has none) and the id. Cursors carry exactly this.
 */
export interface RecordPosition {
  value: string | null
  id: string
}

/**
 * `after`/`before` bound the range (exclusive); `fromEnd` takes the page from the end of the range
 * nearest `before` (Relay's `last`) instead of its start (`first`).
 */
export interface RecordPageRequest {
  limit: number
  after?: RecordPosition
  before?: RecordPosition
  fromEnd: boolean
}

/** `items` in list order; `hasMore` when the range holds more beyond the page, in its reading direction. */
export interface RecordPage<T> {
  items: T[]
  hasMore: boolean
}

export interface ReadRecordOptions {
  /** Read these large columns too (a subset of `largeColumns`). */
  largeColumns?: readonly string[]
  /**
   * Told the bytes a page will weigh before its large columns are read; throws to refuse the page, so
   * a response's size is bounded before its rows are in memory.
   */
  charge?: (bytes: number) => void
}

/** `[from, to)`: either end may be open. */
export interface TimeRange {
  from?: Date | null
  to?: Date | null
}

/** A list's order: one of its sort fields, and a direction. */
export interface RecordOrder<Field extends string> {
  field: Field
  descending: boolean
}

/**
 * A list a caller can page through: its table and columns, the fields it sorts by, and how its filter
 * becomes conditions. Every list is within one account (`accountId` is always the first condition).
 * `Row` is the model its rows are (without the large columns a query did not ask for).
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- Row types the pages read by this definition
export interface RecordListDefinition<Row, Filter, Field extends string> {
  table: string
  columns: readonly string[]
  largeColumns: readonly string[]
  sorts: Record<Field, SortColumn>
  conditions(filter: Filter): Prisma.Sql[]
  /** Checks a filter needs beyond its shape (an unknown customer is 404 where the contract says so). */
  check?(context: DomainContext, filter: Filter): Promise<void>
}
