import { Counter, Gauge } from 'prom-client'
import type pg from 'pg'
import { metricsRegistry } from './metricsRegistry'

const poolConnections = new Gauge({
  name: 'database_pool_connections',
  help: 'Connections of the database pool by state (total, idle) and requests waiting for one',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
})

const poolMaximum = new Gauge({ name: 'database_pool_max_connections', help: 'The pool size limit', registers: [metricsRegistry] })

export const databaseQueryErrors = new Counter({
  name: 'database_query_errors_total',
  help: 'Statements the database refused or that lost their connection, by SQLSTATE class',
  labelNames: ['class'] as const,
  registers: [metricsRegistry],
})

/** Read at scrape time: the pool of this process's application. */
export function recordPoolUse(pool: pg.Pool): void {
  poolConnections.set({ state: 'total' }, pool.totalCount)
  poolConnections.set({ state: 'idle' }, pool.idleCount)
  poolConnections.set({ state: 'waiting' }, pool.waitingCount)
  poolMaximum.set(pool.options.max ?? 10)
}

/**
 * Counts failed statements on every connection of `pool`. The label is the SQLSTATE class (two
 * characters, a closed set) or `connection` when there is no SQLSTATE (a dropped socket, a timeout).
 */
export function countQueryErrors(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...parameters: unknown[]) => unknown
    ;(client as unknown as { query: (...parameters: unknown[]) => unknown }).query = (...parameters: unknown[]) => {
      const callback = parameters.at(-1)
      if (typeof callback === 'function') {
        // pool.query's form: the outcome comes to a callback, not a promise.
        parameters[parameters.length - 1] = (error: unknown, ...rest: unknown[]) => {
          if (error) databaseQueryErrors.inc({ class: sqlStateClass(error) })
          return (callback as (...values: unknown[]) => unknown)(error, ...rest)
        }
      }
      const result = query(...parameters)
      if (result instanceof Promise) result.catch((error: unknown) => databaseQueryErrors.inc({ class: sqlStateClass(error) }))
      return result
    }
  })
}

function sqlStateClass(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code.slice(0, 2) : 'connection'
}
