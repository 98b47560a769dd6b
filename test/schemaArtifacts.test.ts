import { readFile } from 'node:fs/promises'
import { Validator } from '@seriousme/openapi-schema-validator'
import pg from 'pg'
import { describe, expect, test } from 'vitest'
import { diffDatamodels, readSchema } from '../prisma/schemaEngine'
import { restRoutes } from '../rest/restRoutes'
import { buildOpenApiDocument } from '../rest/buildOpenApiDocument'
import { compileRoutes } from '../rest/compileRoutes'
import { printedSchema } from '../src/graphql/printedSchema'
import { schema } from '../src/graphql/schema'
import { createTestDatabase } from './support/testDatabase'

describe('committed artifacts match their sources', () => {
  test('schema.graphql is the printed Pothos schema (run `npm run schema` when this fails)', async () => {
    expect(await readFile(new URL('../schema.graphql', import.meta.url), 'utf8')).toBe(printedSchema())
  })

  test('the migrations build exactly the database schema.prisma describes', async () => {
    const migrated = await createTestDatabase()
    const fromSchema = await createTestDatabase()
    const client = new pg.Client({ connectionString: fromSchema })
    await client.connect()
    try {
      // The template already holds the migrations: empty this copy, then build it from schema.prisma alone.
      await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public')
      await client.query(await diffDatamodels(fromSchema, undefined, await readSchema()))
    } finally {
      await client.end()
    }
    const [expected, actual] = [await describeCatalog(fromSchema), await describeCatalog(migrated)]
    expect(actual.length).toBeGreaterThan(10)
    expect(actual).toEqual(expected)
  }, 60_000)

  test('/v1/openapi.json is a valid OpenAPI 3.1 document covering every route', async () => {
    const document = buildOpenApiDocument(compileRoutes(schema, restRoutes), 'http://localhost:3000')
    const result = await new Validator().validate(document as Parameters<Validator['validate']>[0])
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    const paths = (document as { paths: Record<string, Record<string, unknown>> }).paths
    for (const route of restRoutes) expect(paths[route.path]?.[route.method.toLowerCase()]).toBeDefined()
  })
})

/** Tables, columns, indexes, constraints and enums of the public schema, as comparable text. */
async function describeCatalog(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const rows: string[] = []
    const columns = await client.query(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, datetime_precision
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`)
    for (const row of columns.rows) rows.push(`column ${JSON.stringify(row)}`)
    const indexes = await client.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`)
    for (const row of indexes.rows) rows.push(`index ${row.indexname}: ${row.indexdef}`)
    const constraints = await client.query(`SELECT c.conname, t.relname, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'`)
    for (const row of constraints.rows) rows.push(`constraint ${row.relname}.${row.conname}: ${row.definition}`)
    const enums = await client.query(`SELECT t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`)
    for (const row of enums.rows) rows.push(`enum ${row.typname}: ${row.labels}`)
    return rows.sort()
  } finally {
    await client.end()
  }
}
