import { DomainError } from '../domain/DomainError'

// CONTRACT §2: four scopes, none implies another. An endpoint names the scopes it accepts; a key passes
// when it holds any of them.
export const allScopes = ['read', 'write', 'usage:write', 'checkout:write'] as const

export type Scope = (typeof allScopes)[number]

export function isScope(value: string): value is Scope {
  return (allScopes as readonly string[]).includes(value)
}

export function requireScope(held: readonly string[], accepted: readonly Scope[]): void {
  if (!accepted.some((scope) => held.includes(scope))) {
    throw new DomainError('insufficient_scope', `This API key lacks the scope this request needs (one of: ${accepted.join(', ')})`, {
      details: { required: [...accepted] },
    })
  }
}

/** How a field or an endpoint states the scopes it accepts: "Scope: read." or "Scope: write or usage:write." */
export function describeScopes(accepted: readonly Scope[]): string {
  return `Scope: ${accepted.join(' or ')}.`
}
