import { DomainError } from './DomainError'

export const maxInputDepth = 32

/**
 * What every request's input must be before it goes anywhere: nested at most `maxInputDepth` levels
 * (deeper JSON only costs work and stack), and free of U+0000, which PostgreSQL text and jsonb cannot
 * hold (it would fail deep in the database as an internal error). Iterative, so no input can exhaust
 * the stack checking it. Refusals name where the problem was.
 */
export function checkInputShape(value: unknown, param: string): void {
  const pending: { value: unknown; param: string; depth: number }[] = [{ value, param, depth: 0 }]
  while (pending.length > 0) {
    const { value: current, param: at, depth } = pending.pop()!
    if (typeof current === 'string') {
      if (current.includes('\u0000')) throw new DomainError('validation_error', 'Text may not contain the NUL character (U+0000)', { param: at || 'body' })
      continue
    }
    if (current === null || typeof current !== 'object') continue
    if (depth >= maxInputDepth) throw new DomainError('validation_error', `Input may nest at most ${maxInputDepth} levels deep`, { param: at || 'body' })
    for (const [key, item] of Object.entries(current)) {
      if (key.includes('\u0000')) throw new DomainError('validation_error', 'Text may not contain the NUL character (U+0000)', { param: at || 'body' })
      pending.push({ value: item, param: at ? `${at}.${key}` : key, depth: depth + 1 })
    }
  }
}
