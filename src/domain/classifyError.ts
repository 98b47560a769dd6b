import { isDatabaseUnavailable, isTransactionTimeout } from '../database/isDatabaseUnavailable'
import { DomainError } from './DomainError'

/**
 * What a client may be told about any thrown value: a DomainError as it is, an unreachable database as
 * `unavailable`, anything else as `internal_error` with no detail (the caller logs the original).
 */
export function classifyError(error: unknown): DomainError {
  if (error instanceof DomainError) return error
  // A transaction that outlived its timeout is our work taking too long, not the database being away:
  // a 503 would invite the client to send the same heavy work again.
  if (isTransactionTimeout(error)) return internalError()
  if (isDatabaseUnavailable(error)) {
    return new DomainError('unavailable', 'The service cannot reach its database right now; retry shortly')
  }
  return internalError()
}

function internalError(): DomainError {
  return new DomainError('internal_error', 'Something went wrong on our side; it has been logged with this request\'s id')
}
