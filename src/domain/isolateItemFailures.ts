import { isDataException } from '../database/isDataException'
import { isDatabaseUnavailable } from '../database/isDatabaseUnavailable'
import type { BatcherOptions } from './Batcher'
import { DomainError } from './DomainError'

/**
 * For the hot paths' batchers, which callers of every account share: a batch that fails for one item's
 * sake is split until that item stands alone, so it alone fails (a 400 when PostgreSQL refused its
 * values) and the others commit. Domain errors and an unreachable database are everyone's answer.
 */
export const isolateItemFailures: BatcherOptions = {
  isIsolatable: (error) => !isDatabaseUnavailable(error) && !(error instanceof DomainError),
  describeItemFailure: (error) =>
    isDataException(error) ? new DomainError('validation_error', 'The database refused a value of this request (out of range or not storable text)') : error,
}
