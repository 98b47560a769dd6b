import type { DatabaseConnection } from './database/createDatabaseClient'

/** What lives as long as the process: one per server, shared by every request. */
export interface Services {
  database: DatabaseConnection
  /** Signs list cursors; the same in every process on one database (see loadCursorSecret). */
  cursorSecret: Buffer
  /** Base of the URLs the service hands out (hosted pages). */
  publicUrl: string
}
