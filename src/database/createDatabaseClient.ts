import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaClient } from '../generated/prisma/client'

export type DatabaseClient = InstanceType<typeof PrismaClient>

export interface DatabaseConnection {
  prisma: DatabaseClient
  pool: pg.Pool
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** Connections this process keeps at most. */
  maxConnections?: number
  /** Called with each SQL statement Prisma sends (tests count queries with it). */
  onQuery?: (sql: string) => void
}

// One pool per process, shared by Prisma and the few raw queries that need pg itself. A short
// connect timeout turns an unreachable database into a quick 503 instead of a hung request.
export function createDatabaseClient(databaseUrl: string, options: DatabaseOptions = {}): DatabaseConnection {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 20,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30000,
  })
  // An idle connection that the server drops must not crash the process; the pool replaces it.
  pool.on('error', () => undefined)
  const onQuery = options.onQuery
  const prisma = onQuery
    ? new PrismaClient({ adapter: new PrismaPg(pool), log: [{ emit: 'event', level: 'query' }] })
    : new PrismaClient({ adapter: new PrismaPg(pool) })
  if (onQuery) (prisma as unknown as { $on(event: 'query', listener: (event: { query: string }) => void): void }).$on('query', (event) => onQuery(event.query))
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect()
      await pool.end().catch(() => undefined)
    },
  }
}
