import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { PrismaPg } from '@prisma/adapter-pg'
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils'
import * as engineBindings from '@prisma/schema-engine-wasm/schema_engine_bg'
import type { DiffTarget } from '@prisma/schema-engine-wasm'

// Prisma's schema engine compiled to WebAssembly computes migration SQL without the native engine
// binary that the Prisma CLI would download (and cannot, offline). Development tooling only.
//
// Only datamodel-to-datamodel diffs are used: the WebAssembly engine of this Prisma release cannot
// introspect a live database over adapter-pg (it rejects the NULL cells of its own catalog queries),
// so the migrations are checked against schema.prisma by comparing catalogs instead (test/migrations).

const prismaDirectory = path.dirname(new URL(import.meta.url).pathname)
export const schemaPath = path.join(prismaDirectory, 'schema.prisma')
export const migrationsDirectory = path.join(prismaDirectory, 'migrations')
/** schema.prisma as the newest migration left it; the next migration is the diff from here. */
export const migratedSchemaPath = path.join(migrationsDirectory, 'schema.prisma.migrated')

let engine: Promise<engineBindings.SchemaEngine> | undefined

// The engine opens a connection when it starts (it reads the server's version), so it needs a reachable
// PostgreSQL even for datamodel diffs; no data or schema of that database is read or changed.
function loadEngine(databaseUrl: string): Promise<engineBindings.SchemaEngine> {
  engine ??= (async () => {
    const require = createRequire(import.meta.url)
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm')
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      './schema_engine_bg.js': engineBindings as unknown as WebAssembly.ModuleImports,
    })
    engineBindings.__wbg_set_wasm(instance.exports)
    const database = new PrismaPg({ connectionString: databaseUrl }, { schema: 'public' })
    return engineBindings.SchemaEngine.new({ datamodels: [[schemaPath, await readSchema()]] }, () => {}, bindMigrationAwareSqlAdapterFactory(database))
  })()
  return engine
}

function datamodel(content: string): DiffTarget {
  return { tag: 'schemaDatamodel', files: [{ path: schemaPath, content }] }
}

/** SQL that takes a database described by `fromSchema` (or an empty one) to `toSchema`. */
export async function diffDatamodels(databaseUrl: string, fromSchema: string | undefined, toSchema: string): Promise<string> {
  const result = await (await loadEngine(databaseUrl)).diff({
    from: fromSchema === undefined ? { tag: 'empty' } : datamodel(fromSchema),
    to: datamodel(toSchema),
    script: true,
    exitCode: false,
    filters: { externalTables: [], externalEnums: [] },
  })
  // The engine opens every script with a schema creation that migrations never need.
  return (result.stdout ?? '').replace(/^-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n/, '')
}

export async function readSchema(): Promise<string> {
  return readFile(schemaPath, 'utf8')
}
