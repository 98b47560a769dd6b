import { Prisma } from '../generated/prisma/client'
import type { RecordListDefinition, RecordListQuery, RecordOrder, TimeRange } from './RecordList'

/** The query of one list for one account, with its filter and order. */
export function recordListQuery<Row, Filter, Field extends string>(
  definition: RecordListDefinition<Row, Filter, Field>,
  accountId: string,
  filter: Filter,
  order: RecordOrder<Field>,
): RecordListQuery {
  return {
    table: definition.table,
    columns: definition.columns,
    largeColumns: definition.largeColumns,
    conditions: [Prisma.sql`"accountId" = ${accountId}`, ...definition.conditions(filter)],
    sort: definition.sorts[order.field],
    descending: order.descending,
  }
}

// Conditions the lists' filters are made of. Column names come from code; values are parameters.

export function columnEquals(column: string, value: string | null | undefined): Prisma.Sql[] {
  return value == null ? [] : [Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`]
}

/** An enum column (status, currency) of enum type `type`: the value is cast to it, so an index on the column serves. */
export function enumEquals(column: string, type: string, value: string | null | undefined): Prisma.Sql[] {
  return value == null ? [] : [Prisma.sql`${Prisma.raw(`"${column}"`)} = CAST(${value} AS ${Prisma.raw(`"${type}"`)})`]
}

export function timeWithin(column: string, range: TimeRange | null | undefined): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = []
  if (range?.from) conditions.push(Prisma.sql`${Prisma.raw(`"${column}"`)} >= ${range.from}`)
  if (range?.to) conditions.push(Prisma.sql`${Prisma.raw(`"${column}"`)} < ${range.to}`)
  return conditions
}

/** A prefix match; `%`, `_` and `\` in the prefix match themselves. */
export function startsWith(column: string, prefix: string | null | undefined, caseInsensitive: boolean): Prisma.Sql[] {
  if (prefix == null || prefix === '') return []
  const pattern = `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
  const target = Prisma.raw(caseInsensitive ? `lower("${column}")` : `"${column}"`)
  return [caseInsensitive ? Prisma.sql`${target} LIKE lower(${pattern})` : Prisma.sql`${target} LIKE ${pattern}`]
}

/** A model's columns (its Prisma scalar field enum) but the large ones. */
export function columnsOf(fields: Record<string, string>, large: readonly string[] = []): string[] {
  return Object.values(fields).filter((column) => !large.includes(column))
}
