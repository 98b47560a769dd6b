import { createHmac, timingSafeEqual } from 'node:crypto'
import { DomainError } from '../domain/DomainError'
import type { ListPosition } from '../domain/Page'

// A cursor is `<payload>.<signature>`, both base64url. The signature covers the list's name and the
// account as well as the payload, so a cursor from another list or account fails to verify exactly like
// a forged one (400 invalid_cursor), and the payload itself names no account.

export interface CursorScope {
  secret: Buffer
  list: string
  accountId: string
}

function sign(scope: CursorScope, payload: string): Buffer {
  return createHmac('sha256', scope.secret).update(`${scope.list}\n${scope.accountId}\n${payload}`).digest().subarray(0, 18)
}

export function encodeCursor(scope: CursorScope, position: ListPosition): string {
  const payload = Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url')
  return `${payload}.${sign(scope, payload).toString('base64url')}`
}

export function decodeCursor(scope: CursorScope, cursor: string, param: string): ListPosition {
  const invalid = () => new DomainError('invalid_cursor', 'This cursor was not issued for this list', { param })
  const [payload, signature, extra] = cursor.split('.')
  if (!payload || !signature || extra !== undefined || cursor.length > 200) throw invalid()
  const expected = sign(scope, payload)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid()
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, string]
    const date = new Date(createdAt)
    if (Number.isNaN(date.getTime()) || typeof id !== 'string') throw invalid()
    return { createdAt: date, id }
  } catch {
    throw invalid()
  }
}
