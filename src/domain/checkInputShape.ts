import { DomainError } from './DomainError'

export const maxInputDepth = 32

/**
 * What every request's input must be before it goes anywhere: nested at most `maxInputDepth` levels
 * (deeper JSON only costs work and stack), and well-formed text: no U+0000 and no lone UTF-16 surrogate
 * (`"\udfff"` in JSON), neither of which PostgreSQL text and jsonb can hold. Such text would fail deep in
 * the database, and on the hot paths it would fail the whole shared batch with it. Iterative, so no
 * input can exhaust the stack checking it. Refusals name where the problem was.
 */
export function checkInputShape(value: unknown, param: string): void {
  const pending: { value: unknown; param: string; depth: number }[] = [{ value, param, depth: 0 }]
  while (pending.length > 0) {
    const { value: current, param: at, depth } = pending.pop()!
    if (typeof current === 'string') {
      checkText(current, at)
      continue
    }
    if (current === null || typeof current !== 'object') continue
    if (depth >= maxInputDepth) throw new DomainError('validation_error', `Input may nest at most ${maxInputDepth} levels deep`, { param: at || 'body' })
    for (const [key, item] of Object.entries(current)) {
      checkText(key, at)
      pending.push({ value: item, param: at ? `${at}.${key}` : key, depth: depth + 1 })
    }
  }
}

/** Text PostgreSQL can store: no U+0000 and no unpaired surrogate. */
export function checkText(text: string, param: string): void {
  if (text.includes('\u0000')) throw new DomainError('validation_error', 'Text may not contain the NUL character (U+0000)', { param: param || 'body' })
  if (!text.isWellFormed()) throw new DomainError('validation_error', 'Text must be well-formed Unicode (no unpaired UTF-16 surrogate such as \\udfff)', { param: param || 'body' })
}
