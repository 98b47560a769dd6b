import { execute, type GraphQLSchema } from 'graphql'
import type { Caller } from '../src/accounts/authenticateApiKey'
import { authenticateCaller } from '../src/accounts/authenticateCaller'
import { requireScope } from '../src/accounts/scopes'
import type { Services } from '../src/Services'
import { systemClock, type Transaction } from '../src/domain/DomainContext'
import { DomainError } from '../src/domain/DomainError'
import { requireExactQuantity } from '../src/domain/money'
import { createGraphQLContext } from '../src/graphql/createGraphQLContext'
import { classifyAndLog } from '../src/logging/log'
import { fingerprintRequest } from '../src/idempotency/fingerprintRequest'
import { runIdempotently, type StoredResponse } from '../src/idempotency/runIdempotently'
import type { CompiledRoute } from './compileRoutes'
import { buildVariables } from './buildVariables'
import { findTopLevelNumber } from './findTopLevelNumber'
import { openSecretFields, sealSecretFields } from './sealSecretFields'
import { errorEnvelope, successEnvelope } from './envelope'

export interface RestRequest {
  method: string
  url: URL
  requestId: string
  header(name: string): string | undefined
  /** The raw body; throws payload_too_large past the limit. */
  readBody(): Promise<string>
  /** Told the matched route's path template (`/v1/customers/{customerId}`), for metrics. */
  reportRoute?(template: string): void
}

export interface RestResponse {
  status: number
  headers: Record<string, string>
  body: unknown
}

export type RestHandler = (request: RestRequest) => Promise<RestResponse>

const maxIdempotencyKeyLength = 255

/**
 * The order of checks is the contract's: route, key, scope, body, Idempotency-Key, variables; only
 * then does the endpoint run. Everything refused before that point is never stored under a key.
 */
export function createRestHandler(services: Services, schema: GraphQLSchema, routes: readonly CompiledRoute[]): RestHandler {
  return async (request) => {
    try {
      return await handle(services, schema, routes, request)
    } catch (error) {
      return errorResponse(classifyAndLog(error))
    }
  }
}

async function handle(services: Services, schema: GraphQLSchema, routes: readonly CompiledRoute[], request: RestRequest): Promise<RestResponse> {
  const path = request.url.pathname.length > 1 ? request.url.pathname.replace(/\/$/, '') : request.url.pathname
  const matches = routes.flatMap((compiled) => {
    const match = compiled.pathPattern.exec(path)
    return match ? [{ compiled, pathValues: match.slice(1) }] : []
  })
  if (matches.length === 0) throw new DomainError('not_found', `No route ${request.method} ${path}`)
  request.reportRoute?.(matches[0]!.compiled.route.path)
  const matched = matches.find((candidate) => candidate.compiled.route.method === request.method)
  if (!matched) {
    const allowed = [...new Set(matches.map((candidate) => candidate.compiled.route.method))].join(', ')
    return { ...errorResponse(new DomainError('method_not_allowed', `${request.method} is not allowed here; use ${allowed}`)), headers: { Allow: allowed } }
  }
  const { compiled, pathValues } = matched
  const route = compiled.route

  const caller = await authenticateCaller(services, request.header('authorization'))
  requireScope(caller.scopes, compiled.scopes)

  const body = await readJsonBody(request)
  const idempotencyKey = route.idempotency === 'ignored' ? undefined : request.header('idempotency-key')
  if (route.idempotency === 'required' && idempotencyKey === undefined) {
    throw new DomainError('idempotency_key_required', 'This endpoint needs an Idempotency-Key header (a unique string, e.g. a UUID)')
  }
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > maxIdempotencyKeyLength)) {
    throw new DomainError('validation_error', `Idempotency-Key must be 1 to ${maxIdempotencyKeyLength} characters`, { param: 'Idempotency-Key' })
  }
  const variables = buildVariables(compiled, pathValues, request.url.searchParams, body)

  const run = (db?: Transaction) => runOperation(services, schema, compiled, caller, variables, request.requestId, db)
  if (idempotencyKey === undefined) return toResponse(await run())
  const secretFields = route.secretFields ?? []
  const outcome = await runIdempotently(
    services.database.prisma,
    systemClock,
    { accountId: caller.account.id, key: idempotencyKey, fingerprint: fingerprintRequest(request.method, path + request.url.search, body ?? null) },
    async (db) => sealSecretFields(await run(db), secretFields),
  )
  const response = toResponse(openSecretFields(outcome.response, secretFields))
  if (outcome.replayed) response.headers['Idempotent-Replayed'] = 'true'
  return response
}

async function readJsonBody(request: RestRequest): Promise<Record<string, unknown> | undefined> {
  if (request.method === 'GET') return undefined
  const text = await request.readBody()
  if (text.length === 0) return undefined
  const contentType = request.header('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new DomainError('unsupported_media_type', 'Send JSON bodies with "Content-Type: application/json"')
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new DomainError('invalid_json', 'The body is not valid JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new DomainError('invalid_json', 'The body must be a JSON object')
  }
  const quantity = findTopLevelNumber(text, 'quantity')
  if (quantity !== undefined) requireExactQuantity(quantity)
  return parsed as Record<string, unknown>
}

async function runOperation(
  services: Services,
  schema: GraphQLSchema,
  compiled: CompiledRoute,
  caller: Caller,
  variables: Record<string, unknown>,
  requestId: string,
  db: Transaction | undefined,
): Promise<StoredResponse> {
  const contextValue = await createGraphQLContext({ services, requestId, caller, ...(db ? { db } : {}) })
  const result = await execute({ schema, document: compiled.document, operationName: compiled.operationName, variableValues: variables, contextValue })
  const firstError = result.errors?.[0]
  if (firstError) {
    const error = restParameters(compiled, classifyAndLog(firstError.originalError ?? new DomainError('validation_error', firstError.message)))
    return { status: error.status, body: errorEnvelope(error), storable: error.code !== 'validation_error' }
  }
  const value = (result.data as Record<string, unknown> | null | undefined)?.[compiled.rootField]
  return { status: compiled.route.successStatus ?? 200, body: successEnvelope(compiled.isList ? toList(value) : value), storable: true }
}

interface ConnectionValue {
  edges: { node: unknown }[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

function toList(value: unknown) {
  const connection = value as ConnectionValue
  return {
    items: connection.edges.map((edge) => edge.node),
    hasMore: connection.pageInfo.hasNextPage,
    nextCursor: connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null,
  }
}

/** A domain error names GraphQL arguments (`id`, `first`); REST clients know the REST names. */
function restParameters(compiled: CompiledRoute, error: DomainError): DomainError {
  if (error.param === undefined) return error
  const [head, ...rest] = error.param.split('.')
  const parameter = compiled.parameterOfArgument.get(head ?? '')
  if (parameter === undefined) return error
  const param = [parameter, ...rest].filter((segment) => segment !== '').join('.')
  return new DomainError(error.code, error.message, { ...(param ? { param } : {}), ...(error.details ? { details: error.details } : {}) })
}

function toResponse(stored: StoredResponse): RestResponse {
  const headers: Record<string, string> = {}
  if (stored.status === 503) headers['Retry-After'] = '1'
  const retryAfter = (stored.body as { error?: { details?: { retryAfterSeconds?: unknown } } } | null)?.error?.details?.retryAfterSeconds
  if (stored.status === 429 && typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter)
  return { status: stored.status, headers, body: stored.body }
}

/** The envelope and headers for any refusal: Retry-After on 503 and 429, WWW-Authenticate on 401. */
export function errorResponse(error: DomainError): RestResponse {
  const response = toResponse({ status: error.status, body: errorEnvelope(error), storable: false })
  if (error.code === 'unauthorized') response.headers['WWW-Authenticate'] = 'Bearer'
  return response
}
