import { DomainError } from './DomainError'
import type { DomainContext } from './DomainContext'

/** Sandbox helpers exist for test accounts only; to a live key they are not there at all (CONTRACT §7). */
export function requireTestAccount(context: DomainContext): void {
  if (context.account.mode !== 'test') throw new DomainError('not_found', 'No such route')
}
