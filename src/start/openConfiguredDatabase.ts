import { startEmbeddedDatabase, type EmbeddedDatabase } from '../database/startEmbeddedDatabase'

export interface ConfiguredDatabase {
  url: string
  /** Set when the embedded database was started here (the caller stops it). */
  embedded: EmbeddedDatabase | undefined
}

/**
 * DATABASE_URL, or, when it is unset, the embedded PostgreSQL in DATA_DIR, started here. Used by the
 * entry points (server and CLIs): an embedded database that cannot start here stops the process with
 * one line saying why, not a stack trace.
 */
export async function openConfiguredDatabase(configuration: { databaseUrl: string | undefined; dataDirectory: string }): Promise<ConfiguredDatabase> {
  if (configuration.databaseUrl) return { url: configuration.databaseUrl, embedded: undefined }
  try {
    const embedded = await startEmbeddedDatabase(configuration.dataDirectory)
    return { url: embedded.url, embedded }
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim()
    process.stderr.write(`Cannot start the embedded PostgreSQL (DATA_DIR=${configuration.dataDirectory}): ${reason}\n`)
    process.exit(1)
  }
}
