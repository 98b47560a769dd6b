import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { applyMigrations } from '../../src/database/applyMigrations'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/startEmbeddedDatabase'

// Tests run against real PostgreSQL: TEST_DATABASE_URL, else the local server on 127.0.0.1:5432, else
// (a machine with none) an embedded PostgreSQL started for this run. A template database is migrated
// once; every test file clones it (CREATE DATABASE … TEMPLATE), so files are isolated and fast.

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string
    templateDatabase: string
    databasePrefix: string
  }
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.toString()
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether a test database was left by a run that is gone: named `billing_test_<pid>_…` for a pid that
 * is neither this run's nor a living process's. A concurrent run's databases are never dropped.
 */
export function isLeftByDeadRun(name: string, ownPid: number, isAlive: (pid: number) => boolean = processIsAlive): boolean {
  const pid = Number(/^billing_test_(\d+)_/.exec(name)?.[1])
  return Number.isInteger(pid) && pid !== ownPid && !isAlive(pid)
}

async function dropDatabases(admin: pg.Client, shouldDrop: (name: string) => boolean): Promise<void> {
  const databases = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'billing\\_test\\_%'")
  for (const { datname } of databases.rows) {
    if (shouldDrop(datname)) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined)
  }
}

export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined
  let embeddedDirectory: string | undefined
  let adminUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
  if (!(await reachable(adminUrl))) {
    embeddedDirectory = await mkdtemp(path.join(tmpdir(), 'billing-test-postgres-'))
    embedded = await startEmbeddedDatabase(embeddedDirectory)
    adminUrl = databaseUrl(embedded.url, 'postgres')
  }
  // Every database of this run is named `billing_test_<pid>_…`, so concurrent runs on one server never
  // drop each other's; a run that died leaves databases whose pid no longer lives, removed here.
  const databasePrefix = `billing_test_${process.pid}_`
  const templateDatabase = `${databasePrefix}template`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await dropDatabases(admin, (name) => isLeftByDeadRun(name, process.pid))
  await admin.query(`DROP DATABASE IF EXISTS ${templateDatabase}`)
  await admin.query(`CREATE DATABASE ${templateDatabase}`)
  await applyMigrations(databaseUrl(adminUrl, templateDatabase))
  project.provide('adminUrl', adminUrl)
  project.provide('templateDatabase', templateDatabase)
  project.provide('databasePrefix', databasePrefix)

  return async () => {
    await dropDatabases(admin, (name) => name.startsWith(databasePrefix))
    await admin.end()
    await embedded?.stop()
    // As root the cluster lives outside the folder (see placeDatabaseForRoot).
    if (embedded) await rm(embedded.clusterDirectory, { recursive: true, force: true })
    if (embeddedDirectory) await rm(embeddedDirectory, { recursive: true, force: true })
  }
}
