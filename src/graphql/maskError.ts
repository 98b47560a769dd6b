import { GraphQLError } from 'graphql'
import { DomainError, isErrorCode } from '../domain/DomainError'
import { classifyError } from '../domain/classifyError'
import { logError } from '../logging/log'

/**
 * Every error a GraphQL response carries has `extensions.code` from the closed set (CONTRACT §1), and
 * `param`/`details` where they apply. Errors GraphQL itself raises (syntax, unknown fields, bad
 * variables) are the client's: validation_error. Everything else is masked.
 */
export function maskError(error: unknown): GraphQLError {
  const graphQLError = error instanceof GraphQLError ? error : undefined
  const original = graphQLError ? graphQLError.originalError : error
  if (graphQLError && (original === undefined || original === null || original instanceof GraphQLError)) {
    const code = (original ?? graphQLError).extensions?.code
    return withExtensions(graphQLError, graphQLError.message, {
      code: isErrorCode(code) ? code : 'validation_error',
      ...(graphQLError.extensions?.param === undefined ? {} : { param: graphQLError.extensions.param }),
      // The HTTP status a refusal asks for (yoga reads it and leaves it out of the response).
      ...(graphQLError.extensions?.http === undefined ? {} : { http: graphQLError.extensions.http }),
    })
  }
  const domainError = classifyError(original)
  if (!(original instanceof DomainError)) logError(original)
  return withExtensions(graphQLError, domainError.message, {
    code: domainError.code,
    ...(domainError.param === undefined ? {} : { param: domainError.param }),
    ...(domainError.details === undefined ? {} : { details: domainError.details }),
    // A server that cannot answer now says so at the HTTP level too, as REST does: 503 with Retry-After.
    ...(domainError.code === 'unavailable' ? { http: { status: 503, headers: { 'Retry-After': String(domainError.details?.retryAfterSeconds ?? 1) } } } : {}),
  })
}

function withExtensions(source: GraphQLError | undefined, message: string, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, {
    nodes: source?.nodes,
    source: source?.source,
    positions: source?.positions,
    path: source?.path,
    extensions,
  })
}
