import type { Configuration } from '../readConfiguration'
import { startEmbeddedDatabase, type EmbeddedDatabase } from './startEmbeddedDatabase'

export interface ConfiguredDatabase {
  url: string
  /** Set when the embedded database was started here (the caller stops it). */
  embedded: EmbeddedDatabase | undefined
}

/** DATABASE_URL, or, when it is unset, the embedded PostgreSQL in DATA_DIR, started here. */
export async function openConfiguredDatabase(configuration: Pick<Configuration, 'databaseUrl' | 'dataDirectory'>): Promise<ConfiguredDatabase> {
  if (configuration.databaseUrl) return { url: configuration.databaseUrl, embedded: undefined }
  const embedded = await startEmbeddedDatabase(configuration.dataDirectory)
  return { url: embedded.url, embedded }
}
