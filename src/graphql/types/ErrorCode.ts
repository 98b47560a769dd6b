import { errorCodes } from '../../domain/DomainError'
import { builder } from '../builder'

// Not returned by any field: documents the closed set of `extensions.code` values an error can carry,
// so that GraphiQL and generated clients know them. `extensions.param` names the offending argument.
export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: 'Every value `errors[].extensions.code` can take. Anything unexpected is `internal_error`.',
  values: errorCodes,
})

builder.queryField('errorCodes', (t) =>
  t.field({
    type: [ErrorCodeEnum],
    description: 'The closed set of error codes (no scope needed).',
    resolve: () => errorCodes,
  }),
)
