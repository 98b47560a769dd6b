// Every error a client can be shown. The set is closed: anything thrown that is not a DomainError is
// an internal error, logged with its request id and shown only as `internal_error`.

export const errorStatuses = {
  invalid_json: 400,
  validation_error: 400,
  invalid_cursor: 400,
  idempotency_key_required: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  customer_not_found: 404,
  product_not_found: 404,
  price_not_found: 404,
  meter_not_found: 404,
  subscription_not_found: 404,
  checkout_session_not_found: 404,
  invoice_not_found: 404,
  transaction_not_found: 404,
  event_not_found: 404,
  webhook_endpoint_not_found: 404,
  method_not_allowed: 405,
  externalId_conflict: 409,
  active_subscription: 409,
  invalid_state: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rail_not_available: 422,
  tax_id_required: 422,
  rate_limited: 429,
  internal_error: 500,
  provider_error: 502,
  unavailable: 503,
} as const

export type ErrorCode = keyof typeof errorStatuses

export const errorCodes = Object.keys(errorStatuses) as ErrorCode[]

export interface DomainErrorOptions {
  /** The offending field, as a dot path of the request (`defaultPrice.amount`). */
  param?: string
  details?: Record<string, unknown>
}

export class DomainError extends Error {
  readonly code: ErrorCode
  readonly param: string | undefined
  readonly details: Record<string, unknown> | undefined

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message)
    this.name = 'DomainError'
    this.code = code
    this.param = options.param
    this.details = options.details
  }

  get status(): number {
    return errorStatuses[this.code]
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatuses, value)
}
