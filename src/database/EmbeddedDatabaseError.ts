/** Why the embedded PostgreSQL cannot start here, in one line a person can act on (the process then stops with it). */
export class EmbeddedDatabaseError extends Error {
  override readonly name = 'EmbeddedDatabaseError'
}
