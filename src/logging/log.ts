import { classifyError } from '../domain/classifyError'
import type { DomainError } from '../domain/DomainError'
import { currentRequestId } from './requestScope'

// One JSON line per event on stdout/stderr. Never logs request bodies or headers: they may hold API keys.

export function logInfo(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL === 'silent') return
  process.stdout.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), message, ...fields })}\n`)
}

/** Something an operator should see that is not a bug (no stack): one line on stderr. */
export function logWarning(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL === 'silent') return
  process.stderr.write(`${JSON.stringify({ level: 'warn', time: new Date().toISOString(), message, ...fields })}\n`)
}

export function logError(error: unknown): void {
  if (process.env.LOG_LEVEL === 'silent') return
  const requestId = currentRequestId()
  const detail = error instanceof Error ? { error: error.name, message: error.message, stack: error.stack } : { error: String(error) }
  process.stderr.write(`${JSON.stringify({ level: 'error', time: new Date().toISOString(), requestId, ...detail })}\n`)
}

/** What the client may be told about any thrown value (classifyError); unexpected ones are logged with the request id. */
export function classifyAndLog(error: unknown): DomainError {
  const classified = classifyError(error)
  if (classified.code === 'internal_error') logError(error)
  return classified
}
