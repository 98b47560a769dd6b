import { lexicographicSortSchema, printSchema } from 'graphql'
import { schema } from './schema'

export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`
}
