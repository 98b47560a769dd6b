import { createHmac, timingSafeEqual } from 'node:crypto'
import { DomainError } from '../domain/DomainError'
import type { ListPosition } from '../domain/Page'
import type { RecordPosition } from '../domain/RecordList'

// A cursor is `<payload>.<signature>`, both base64url. The signature covers the list's name and the
// account as well as the payload, so a cursor from another list or account fails to verify exactly like
// a forged one (400 invalid_cursor), and the payload itself names no account. A list's name includes
// its filters and order (connections.ts), so a cursor is refused under other filters or another order.

export interface CursorScope {
  secret: Buffer
  list: string
  accountId: string
}

function sign(scope: CursorScope, payload: string): Buffer {
  return createHmac('sha256', scope.secret).update(`${scope.list}\n${scope.accountId}\n${payload}`).digest().subarray(0, 18)
}

export function encodeCursor(scope: CursorScope, position: ListPosition): string {
  return encodePosition(scope, { value: position.createdAt.toISOString(), id: position.id })
}

export function decodeCursor(scope: CursorScope, cursor: string, param: string): ListPosition {
  const position = decodePosition(scope, cursor, param)
  const date = new Date(position.value ?? '')
  if (Number.isNaN(date.getTime())) throw invalidCursor(param)
  return { createdAt: date, id: position.id }
}

/** A list position as a cursor: its sort value (text, or null) and id; `[createdAt, id]` for lists newest first. */
export function encodePosition(scope: CursorScope, position: RecordPosition): string {
  const payload = Buffer.from(JSON.stringify([position.value, position.id])).toString('base64url')
  return `${payload}.${sign(scope, payload).toString('base64url')}`
}

function invalidCursor(param: string): DomainError {
  return new DomainError('invalid_cursor', 'This cursor was not issued for this list (with these filters and this order)', { param })
}

export function decodePosition(scope: CursorScope, cursor: string, param: string): RecordPosition {
  const invalid = () => invalidCursor(param)
  const [payload, signature, extra] = cursor.split('.')
  if (!payload || !signature || extra !== undefined || cursor.length > 2800) throw invalid()
  const expected = sign(scope, payload)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid()
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    throw invalid()
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid()
  const [value, id] = parsed as unknown[]
  if ((value !== null && typeof value !== 'string') || typeof id !== 'string') throw invalid()
  return { value, id }
}
