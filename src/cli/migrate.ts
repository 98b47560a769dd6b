import { applyMigrations } from '../database/applyMigrations'
import { openConfiguredDatabase } from '../start/openConfiguredDatabase'
import { readConfiguration } from '../readConfiguration'

// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (else the embedded database).
// The server does the same at every start; this is for deploy pipelines that migrate first.
const { url, embedded } = await openConfiguredDatabase(readConfiguration())
const outcome = await applyMigrations(url)
console.log(outcome.applied.length === 0 ? 'the database is up to date' : `applied: ${outcome.applied.join(', ')}`)
await embedded?.stop()
