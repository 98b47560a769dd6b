import { isDatabaseUnavailable } from '../database/isDatabaseUnavailable'
import { DomainError } from './DomainError'

/**
 * What a client may be told about any thrown value: a DomainError as it is, an unreachable database as
 * `unavailable`, anything else as `internal_error` with no detail (the caller logs the original).
 */
export function classifyError(error: unknown): DomainError {
  if (error instanceof DomainError) return error
  if (isDatabaseUnavailable(error)) {
    return new DomainError('unavailable', 'The service cannot reach its database right now; retry shortly')
  }
  return new DomainError('internal_error', 'Something went wrong on our side; it has been logged with this request\'s id')
}
