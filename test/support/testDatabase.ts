import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import { databaseUrl } from './globalSetup'

/** A fresh, migrated database of its own (cloned from the template); dropped by globalSetup's teardown. */
export async function createTestDatabase(): Promise<string> {
  const name = `${inject('databasePrefix')}${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: inject('adminUrl') })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`)
  } finally {
    await admin.end()
  }
  return databaseUrl(inject('adminUrl'), name)
}

export function adminDatabaseUrl(): string {
  return inject('adminUrl')
}
