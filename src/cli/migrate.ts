import { applyMigrations } from '../database/applyMigrations'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../database/startEmbeddedDatabase'
import { readConfiguration } from '../readConfiguration'

// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (else the embedded database).
// The server does the same at every start; this is for deploy pipelines that migrate first.
const configuration = readConfiguration()
let embedded: EmbeddedDatabase | undefined
if (!configuration.databaseUrl) embedded = await startEmbeddedDatabase(configuration.dataDirectory)
const outcome = await applyMigrations(configuration.databaseUrl ?? embedded!.url)
console.log(outcome.applied.length === 0 ? 'the database is up to date' : `applied: ${outcome.applied.join(', ')}`)
await embedded?.stop()
