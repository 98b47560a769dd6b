import type { ErrorCode } from '../src/domain/DomainError'

/**
 * One /v1 endpoint, declared: everything the bridge needs to turn a request into a GraphQL operation
 * and the operation's result into SPEC.md's envelope. A route holds no logic of its own.
 *
 * - Variables are named after the REST parameters they come from: `{customerId}` in the path fills
 *   `$customerId`, `?limit=` fills `$limit`, and the JSON body fills the variable named by `body`.
 *   Query parameters are exactly the operation's variables that are neither path nor body.
 * - `data` is the operation's single root field. A Relay connection becomes the list envelope
 *   (`items`, `hasMore`, `nextCursor`); anything else is returned as selected (aliases rename fields).
 * - The scopes it accepts are its root field's (`scopes` on the GraphQL field), read when it is compiled.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: string
  summary: string
  /**
   * `required`/`optional`: the Idempotency-Key header (CONTRACT §3). `ignored`: the endpoint stores
   * nothing under the header (the checks) or has its own key in the body (usage events).
   */
  idempotency: 'required' | 'optional' | 'ignored'
  /** A GraphQL document with exactly one operation. */
  operation: string
  /**
   * The refusals of the operation's own rules (CONTRACT §1): `customer_not_found`, `invalid_state`, …
   * The OpenAPI document lists them, by status, beside those every endpoint of its shape can answer
   * (validation, key, scope, rate limit, body, Idempotency-Key, cursor: rest/describeErrorResponses.ts).
   */
  errors: readonly ErrorCode[]
  /** The variable that receives the JSON body, if the endpoint takes one. */
  body?: string
  /** Query parameters that are other names for a variable (`before` for `cursor`). */
  queryAliases?: Record<string, string>
  successStatus?: 200 | 201 | 202
  /** Fields of `data` that are secrets shown once: stored encrypted under the Idempotency-Key (rest/sealSecretFields.ts). */
  secretFields?: readonly string[]
}
