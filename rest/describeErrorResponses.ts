import { errorCodes, errorStatuses, type ErrorCode } from '../src/domain/DomainError'
import type { CompiledRoute } from './compileRoutes'
import type { JsonSchema } from './graphqlJsonSchema'

// The refusals of one endpoint in the OpenAPI document: each status it can answer, with the closed set
// of codes it can carry there (CONTRACT §1). A route declares the codes of its own rules (`errors`);
// those every endpoint of its shape shares are derived here, from the order of checks in
// rest/handleRestRequest.ts: key, scope, body, Idempotency-Key, variables, cursor, then the operation.
// Each distinct set of codes is one shared response (`components.responses`), named after its codes.

/** Every endpoint: a bad parameter, a refused key, a missing scope, the rate limit, our failures. */
const sharedCodes: readonly ErrorCode[] = ['validation_error', 'unauthorized', 'insufficient_scope', 'rate_limited', 'internal_error', 'unavailable']
/** An endpoint that reads a body (every method but GET, even when it takes no fields). */
const bodyCodes: readonly ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type']
/** An endpoint that stores its answer under the Idempotency-Key header (CONTRACT §3). */
const idempotencyCodes: readonly ErrorCode[] = ['idempotency_key_in_use', 'idempotency_key_reused']

const statusDescriptions: Record<number, string> = {
  400: 'The request is malformed or a parameter is invalid (`param` names it)',
  401: 'Missing, malformed, unknown, revoked or expired API key',
  403: 'The key holds none of the scopes this endpoint accepts (`details.required` lists them)',
  404: 'No such resource in this account',
  409: 'The resource\'s state, or a request in flight with the same Idempotency-Key, forbids this',
  413: 'The body is over the size limit',
  415: 'The body was not sent as application/json',
  422: 'Well-formed, but cannot be done as asked',
  429: 'Too many requests: retry after Retry-After seconds',
  500: 'Something went wrong on our side (logged with the request id)',
  502: 'The payment provider failed',
  503: 'Temporarily unavailable: retry after Retry-After seconds',
}

/** The codes an endpoint can answer, in the order of CONTRACT §1's table. */
export function listErrorCodes(compiled: CompiledRoute): ErrorCode[] {
  const route = compiled.route
  const codes = new Set<ErrorCode>([...sharedCodes, ...route.errors])
  if (route.method !== 'GET') for (const code of bodyCodes) codes.add(code)
  if (compiled.isList) codes.add('invalid_cursor')
  if (route.idempotency === 'required') codes.add('idempotency_key_required')
  if (route.idempotency !== 'ignored') for (const code of idempotencyCodes) codes.add(code)
  return errorCodes.filter((code) => codes.has(code))
}

/** Each error status of the endpoint with its codes, by status. */
function errorsByStatus(compiled: CompiledRoute): [number, ErrorCode[]][] {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of listErrorCodes(compiled)) byStatus.set(errorStatuses[code], [...(byStatus.get(errorStatuses[code]) ?? []), code])
  return [...byStatus].sort(([left], [right]) => left - right)
}

/** `customer_not_found` and `invalid_state` → `CustomerNotFoundOrInvalidState`. */
function responseName(codes: readonly ErrorCode[]): string {
  return codes.map((code) => code.split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')).join('Or')
}

/** The operation's `responses` entries for its error statuses: references to the shared responses. */
export function describeErrorResponses(compiled: CompiledRoute): Record<string, JsonSchema> {
  return Object.fromEntries(errorsByStatus(compiled).map(([status, codes]) => [String(status), { $ref: `#/components/responses/${responseName(codes)}` }]))
}

/** `components.responses`: one per distinct set of codes that some endpoint answers with one status. */
export function describeSharedErrorResponses(routes: readonly CompiledRoute[]): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {}
  for (const [status, codes] of routes.flatMap(errorsByStatus)) {
    const headers = responseHeaders(status)
    responses[responseName(codes)] ??= {
      description: statusDescriptions[status] ?? 'Error',
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: errorEnvelopeSchema(codes) } },
    }
  }
  return responses
}

function responseHeaders(status: number): JsonSchema | undefined {
  if (status === 401) return { 'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string' } } }
  if (status === 429 || status === 503) return { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } }
  return undefined
}

/** CONTRACT §1's failure envelope, with `code` one of `codes`. */
export function errorEnvelopeSchema(codes: readonly ErrorCode[]): JsonSchema {
  return {
    type: 'object',
    required: ['data', 'error', 'success'],
    properties: {
      data: { type: 'null' },
      success: { const: false },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: codes },
          message: { type: 'string' },
          param: { type: 'string', description: 'The offending field, as a dot path of the request (`defaultPrice.amount`).' },
          details: { type: 'object', additionalProperties: true },
        },
      },
    },
  }
}
