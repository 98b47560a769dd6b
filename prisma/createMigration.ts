import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { diffDatamodels, migratedSchemaPath, migrationsDirectory, readSchema, schemaPath } from './schemaEngine'

// `npm run db:migration -- NAME` writes prisma/migrations/<timestamp>_NAME/migration.sql: the SQL from
// schema.prisma as the newest migration left it to schema.prisma as it is now. Review the SQL before
// committing it (data moves, defaults for new NOT NULL columns are yours to add). Needs a PostgreSQL
// server to start the schema engine (DATABASE_URL, else the local one).

const name = process.argv[2]
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:migration -- <name_in_snake_case>')
  process.exit(2)
}
const previous = await readFile(migratedSchemaPath, 'utf8').catch(() => undefined)
const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
const sql = await diffDatamodels(databaseUrl, previous, await readSchema())
if (/^\s*(-- This is an empty migration\.)?\s*$/.test(sql)) {
  console.log('schema.prisma has not changed since the newest migration; nothing written')
  process.exit(0)
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14)
const directory = path.join(migrationsDirectory, `${stamp}_${name}`)
await mkdir(directory, { recursive: true })
await writeFile(path.join(directory, 'migration.sql'), sql)
await copyFile(schemaPath, migratedSchemaPath)
console.log(`wrote ${path.relative(process.cwd(), directory)}/migration.sql`)
