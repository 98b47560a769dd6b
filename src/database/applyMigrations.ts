import { createHash, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'

// Applies prisma/migrations/*/migration.sql in name order, recording them in Prisma's own
// `_prisma_migrations` table with Prisma's checksums, so that `prisma migrate deploy` (where the native
// engine exists) and this runner agree on what has been applied. Runs at every start: several server
// processes may start at once, so the whole run holds the advisory lock Prisma Migrate uses.

/** prisma/migrations of the project this code runs from (as source, or bundled into dist/). */
function findMigrationsDirectory(): string {
  let directory = path.dirname(new URL(import.meta.url).pathname)
  for (;;) {
    const candidate = path.join(directory, 'prisma', 'migrations')
    if (existsSync(candidate)) return candidate
    const parent = path.dirname(directory)
    if (parent === directory) throw new Error('prisma/migrations not found above this module')
    directory = parent
  }
}

const migrationsDirectory = findMigrationsDirectory()
const prismaMigrateAdvisoryLock = 72707369

export interface MigrationOutcome {
  applied: string[]
}

export async function applyMigrations(databaseUrl: string): Promise<MigrationOutcome> {
  // A host that drops packets fails the attempt in seconds, not after the system's TCP timeout.
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 })
  await client.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [prismaMigrateAdvisoryLock])
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`)
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    )
    const appliedChecksums = new Map(done.rows.map((row) => [row.migration_name, row.checksum]))
    const applied: string[] = []
    for (const migration of await readMigrations()) {
      const previous = appliedChecksums.get(migration.name)
      if (previous !== undefined) {
        if (previous !== migration.checksum) {
          throw new Error(`migration ${migration.name} was changed after it was applied`)
        }
        continue
      }
      // Each migration and its record commit together: a crash leaves it either fully applied or not at all.
      await client.query('BEGIN')
      try {
        await client.query(migration.sql)
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        )
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
      applied.push(migration.name)
    }
    return { applied }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [prismaMigrateAdvisoryLock]).catch(() => undefined)
    await client.end()
  }
}

async function readMigrations(): Promise<{ name: string; sql: string; checksum: string }[]> {
  const entries = await readdir(migrationsDirectory, { withFileTypes: true })
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(migrationsDirectory, name, 'migration.sql'), 'utf8')
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') }
    }),
  )
}
