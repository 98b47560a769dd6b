import type { DatabaseConnection } from './database/createDatabaseClient'

/** What lives as long as the process: one per server, shared by every request. */
export interface Services {
  database: DatabaseConnection
  /** Signs list cursors and payment links; the same in every process on one database (see loadSigningSecret). */
  signingSecret: Buffer
  /** Base of the URLs the service hands out (hosted pages). */
  publicUrl: string
}
