import type { Database } from './DomainContext'
import { Prisma } from '../generated/prisma/client'
import type { ReadRecordOptions, RecordListQuery, RecordPage, RecordPageRequest, RecordPosition, SortColumn } from './RecordList'

// Keyset paging over any list (RecordList.ts): a page is read from an index in the list's order from a
// position, never by offset, so page 1,000 costs what page 1 does. A nested list (a customer's events)
// is one LATERAL query for all parents, each parent's page read from its own index range.

/** What one row weighs in a response besides its large columns (ids, amounts, times, field names). */
export const smallRowBytes = 400

function name(identifier: string): Prisma.Sql {
  return Prisma.raw(`"${identifier}"`)
}

function valueOf(sort: SortColumn, value: string): Prisma.Sql {
  if (sort.kind === 'time') return Prisma.sql`CAST(${value} AS timestamptz)`
  if (sort.kind === 'decimal') return Prisma.sql`CAST(${value} AS numeric)`
  return Prisma.sql`${value}`
}

/** The rows strictly beyond `position` towards larger (`>`) or smaller (`<`) sort keys; nulls are the largest. */
function beyond(sort: SortColumn, position: RecordPosition, towards: '>' | '<'): Prisma.Sql {
  const column = name(sort.column)
  const operator = Prisma.raw(towards)
  if (position.value === null) {
    return towards === '>'
      ? Prisma.sql`(${column} IS NULL AND id > ${position.id})`
      : Prisma.sql`(${column} IS NOT NULL OR (${column} IS NULL AND id < ${position.id}))`
  }
  // A row comparison, which an index on (…, column, id) serves directly.
  const ordered = Prisma.sql`(${column}, id) ${operator} (${valueOf(sort, position.value)}, ${position.id})`
  return sort.nullable && towards === '>' ? Prisma.sql`(${ordered} OR ${column} IS NULL)` : ordered
}

/** The conditions and order of one page's read. */
function pageSql(query: RecordListQuery, page: RecordPageRequest): { where: Prisma.Sql; orderBy: Prisma.Sql } {
  const later: '>' | '<' = query.descending ? '<' : '>'
  const earlier: '>' | '<' = query.descending ? '>' : '<'
  const conditions = [...query.conditions]
  if (page.after) conditions.push(beyond(query.sort, page.after, later))
  if (page.before) conditions.push(beyond(query.sort, page.before, earlier))
  // `last` reads the range backwards from its end, then the page is put back in list order.
  const readDescending = query.descending !== page.fromEnd
  const direction = Prisma.raw(readDescending ? 'DESC' : 'ASC')
  return {
    where: conditions.length === 0 ? Prisma.sql`TRUE` : Prisma.join(conditions, ' AND '),
    orderBy: Prisma.sql`${name(query.sort.column)} ${direction}, id ${direction}`,
  }
}

function selectedColumns(query: RecordListQuery, extra: readonly string[] = []): Prisma.Sql {
  return Prisma.join([...new Set(['id', query.sort.column, ...query.columns, ...extra])].map(name), ', ')
}

function largeColumnsToRead(query: RecordListQuery, options: ReadRecordOptions): string[] {
  return (options.largeColumns ?? []).filter((column) => query.largeColumns.includes(column))
}

/** What the large columns of these rows will weigh, measured by PostgreSQL; the page is refused before they are read. */
function sizeSql(columns: readonly string[]): Prisma.Sql {
  if (columns.length === 0) return Prisma.sql`0`
  return Prisma.join(columns.map((column) => Prisma.sql`COALESCE(octet_length(${name(column)}::text), 0)`), ' + ')
}

type Row = Record<string, unknown> & { id: string }

async function addLargeColumns(db: Database, query: RecordListQuery, rows: (Row & { __bytes: number })[], columns: readonly string[], options: ReadRecordOptions): Promise<Row[]> {
  const bytes = rows.reduce((sum, row) => sum + Number(row.__bytes) + smallRowBytes, 0)
  options.charge?.(bytes)
  const plain = rows.map(({ __bytes: _bytes, ...row }) => row as Row)
  if (columns.length === 0 || plain.length === 0) return plain
  const large = await db.$queryRaw<Row[]>(
    Prisma.sql`SELECT id, ${Prisma.join(columns.map(name), ', ')} FROM ${name(query.table)} WHERE id = ANY(${plain.map((row) => row.id)})`,
  )
  const byId = new Map(large.map((row) => [row.id, row]))
  return plain.map((row) => ({ ...row, ...byId.get(row.id) }))
}

function toPage<T>(rows: Row[], page: RecordPageRequest): RecordPage<T> {
  const items = rows.slice(0, page.limit)
  if (page.fromEnd) items.reverse()
  return { items: items as unknown as T[], hasMore: rows.length > page.limit }
}

/** One page of one list. */
export async function readRecordPage<T>(db: Database, query: RecordListQuery, page: RecordPageRequest, options: ReadRecordOptions = {}): Promise<RecordPage<T>> {
  const { where, orderBy } = pageSql(query, page)
  const large = largeColumnsToRead(query, options)
  const rows = await db.$queryRaw<(Row & { __bytes: number })[]>(Prisma.sql`
    SELECT ${selectedColumns(query)}, ${sizeSql(large)} AS "__bytes"
    FROM ${name(query.table)} WHERE ${where} ORDER BY ${orderBy} LIMIT ${page.limit + 1}`)
  return toPage<T>(await addLargeColumns(db, query, rows, large, options), page)
}

/**
 * One page of one list for each of many parents (`parentColumn` = each id), in ONE query: a dashboard
 * listing 100 customers with their latest events costs one query per list, not one per customer.
 */
export async function readRecordPagesByParent<T>(
  db: Database,
  query: RecordListQuery,
  parentColumn: string,
  parentIds: readonly string[],
  page: RecordPageRequest,
  options: ReadRecordOptions = {},
): Promise<Map<string, RecordPage<T>>> {
  const { where, orderBy } = pageSql(query, page)
  const large = largeColumnsToRead(query, options)
  const rows = await db.$queryRaw<(Row & { __bytes: number; __parent: string })[]>(Prisma.sql`
    SELECT parent.id AS "__parent", page.* FROM unnest(${[...parentIds]}::text[]) AS parent(id)
    CROSS JOIN LATERAL (
      SELECT ${selectedColumns(query)}, ${sizeSql(large)} AS "__bytes"
      FROM ${name(query.table)} WHERE ${name(parentColumn)} = parent.id AND ${where} ORDER BY ${orderBy} LIMIT ${page.limit + 1}
    ) page`)
  const complete = await addLargeColumns(db, query, rows, large, options)
  const byParent = new Map<string, Row[]>(parentIds.map((id) => [id, []]))
  complete.forEach((row, index) => byParent.get(rows[index]!.__parent)?.push(row))
  for (const row of complete) delete row.__parent
  return new Map([...byParent].map(([id, parentRows]) => [id, toPage<T>(parentRows, page)]))
}

/** How many rows the list holds (its conditions, not a page's bounds). */
export async function countRecords(db: Database, query: RecordListQuery): Promise<number> {
  const where = query.conditions.length === 0 ? Prisma.sql`TRUE` : Prisma.join([...query.conditions], ' AND ')
  const [row] = await db.$queryRaw<{ count: number }[]>(Prisma.sql`SELECT count(*)::int AS count FROM ${name(query.table)} WHERE ${where}`)
  return row?.count ?? 0
}

/** How many rows each parent's list holds, in one query. */
export async function countRecordsByParent(db: Database, query: RecordListQuery, parentColumn: string, parentIds: readonly string[]): Promise<Map<string, number>> {
  const conditions = [...query.conditions, Prisma.sql`${name(parentColumn)} = ANY(${[...parentIds]})`]
  const rows = await db.$queryRaw<{ parent: string; count: number }[]>(Prisma.sql`
    SELECT ${name(parentColumn)} AS parent, count(*)::int AS count FROM ${name(query.table)}
    WHERE ${Prisma.join(conditions, ' AND ')} GROUP BY 1`)
  const counts = new Map(parentIds.map((id) => [id, 0]))
  for (const row of rows) counts.set(row.parent, row.count)
  return counts
}

/** The position of a row read by `query` (what its cursor carries). */
export function positionOf(query: RecordListQuery, row: Record<string, unknown> & { id: string }): RecordPosition {
  const value = row[query.sort.column]
  if (value === null || value === undefined) return { value: null, id: row.id }
  if (value instanceof Date) return { value: value.toISOString(), id: row.id }
  if (value instanceof Prisma.Decimal) return { value: value.toFixed(), id: row.id }
  return { value: String(value), id: row.id }
}
