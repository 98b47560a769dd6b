// Whether an error means "the database cannot be reached right now" (503, retry later) rather than a
// bug. Errors arrive in several wrappings (pg, adapter-pg's driver errors, Prisma's request errors), so
// the whole cause chain is searched for a known signal.

const unavailableKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionAlreadyClosed'])
const unavailableCodes = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH',
  // Prisma: cannot reach server, timed out, server closed the connection, pool timeout, transaction not found (it died with its connection)
  'P1001', 'P1002', 'P1017', 'P2024', 'P2028',
  // PostgreSQL: connection exceptions, server shutting down or starting up, too many connections
  '08000', '08003', '08006', '08001', '08004', '57P01', '57P02', '57P03', '53300',
])
const unavailableMessages = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /Cannot use a pool after calling end/i,
]

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current)
    const candidate = current as { code?: unknown; kind?: unknown; message?: unknown; originalCode?: unknown; cause?: unknown; meta?: unknown }
    if (typeof candidate.kind === 'string' && unavailableKinds.has(candidate.kind)) return true
    for (const code of [candidate.code, candidate.originalCode]) {
      if (typeof code === 'string' && unavailableCodes.has(code)) return true
    }
    if (typeof candidate.message === 'string' && unavailableMessages.some((pattern) => pattern.test(candidate.message as string))) return true
    const meta = candidate.meta as { driverAdapterError?: unknown } | undefined
    current = candidate.cause ?? meta?.driverAdapterError
  }
  return false
}

/** Prisma's "transaction already closed … expired transaction … timeout" (an interactive transaction that ran past its timeout). */
export function isTransactionTimeout(error: unknown): boolean {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current)
    const candidate = current as { message?: unknown; cause?: unknown }
    if (typeof candidate.message === 'string' && /expired transaction|timeout for this transaction/i.test(candidate.message)) return true
    current = candidate.cause
  }
  return false
}
