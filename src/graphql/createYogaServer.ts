import { GraphQLError, NoSchemaIntrospectionCustomRule, parse, type DocumentNode } from 'graphql'
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga'
import type { Services } from '../Services'
import { createGraphQLContext } from './createGraphQLContext'
import type { GraphQLContext } from './GraphQLContext'
import { currentRequestId } from '../logging/requestScope'
import type { DomainError } from '../domain/DomainError'
import { checkInputShape, checkText } from '../domain/checkInputShape'
import { observeGraphQLOperations } from '../metrics/observeGraphQLOperations'
import { maskError } from './maskError'
import { checkDocumentSize, countTokens } from './checkDocumentSize'
import { exactNumbersRule } from './exactNumbersRule'
import { findRoundedNumber } from '../domain/findRoundedNumber'
import { introspectionLimitsRule } from './introspectionLimits'
import { costRefusal, defaultQueryLimits, queryLimitsRule, type QueryLimits } from './queryLimits'
import { measureCost } from './measureCost'
import { renderLocalGraphiQL } from './renderLocalGraphiQL'
import { schema } from './schema'
import { WeightedCache } from './WeightedCache'

export type YogaServer = YogaServerInstance<Record<string, never>, GraphQLContext>

export interface GraphQLSettings {
  /** Schema introspection (GraphiQL needs it); turn off to hide the schema in production. */
  introspection: boolean
  graphiql: boolean
  limits: QueryLimits
}

export const defaultGraphQLSettings: GraphQLSettings = { introspection: true, graphiql: true, limits: defaultQueryLimits }

// Yoga's parse cache bounds how many documents it keeps, not their size; these bound its memory.
// A parsed document (AST and tokens) measured at most ~500 bytes per token, plus its text: the cache's
// key, and again in the values of its string tokens. Weighing tokens alone let ~800 distinct documents
// of one 99 KB string literal each (a handful of tokens) take the 256 MB heap down (npm run bench:memory).
const documentCacheBytes = 32 * 1024 * 1024
const bytesPerToken = 500
// Two copies of the text, two bytes per character when V8 stores it as UTF-16.
const bytesPerCharacter = 4
// Refused documents are remembered by their text, so that a repeat costs no parse.
const errorCacheCharacters = 4 * 1024 * 1024

/** The GraphQL endpoint (with GraphiQL in a browser); the listening server is elsewhere (src/server.ts). */
export function createYogaServer(services: Services, settings: GraphQLSettings = defaultGraphQLSettings): YogaServer {
  const documentCache = new WeightedCache<string, DocumentNode>(documentCacheBytes, (text, document) => countTokens(document) * bytesPerToken + text.length * bytesPerCharacter)
  const rules = [queryLimitsRule(settings.limits), exactNumbersRule, settings.introspection ? introspectionLimitsRule() : NoSchemaIntrospectionCustomRule]
  const limitsPlugin: Plugin<GraphQLContext> = {
    onRequestParse: ({ request, requestParser, setRequestParser }) => {
      // Variables are parsed by JSON.parse, which rounds a number of more than 15 significant digits;
      // only the raw body tells, so it is read before the parser runs (the body is already in memory,
      // bounded by maxBodyBytes).
      // Only JSON bodies: in a form-encoded one, quotes are escaped and strings cannot be told from numbers.
      if (!requestParser || request.method !== 'POST' || !/json/i.test(request.headers.get('content-type') ?? '')) return
      setRequestParser(async (incoming) => {
        const rounded = findRoundedNumber(await incoming.clone().text())
        if (rounded !== undefined) {
          throw new GraphQLError(`${rounded.slice(0, 40)} has more than 15 significant digits and would be rounded`, {
            extensions: { code: 'validation_error', param: 'variables', http: { status: 400 } },
          })
        }
        return requestParser(incoming)
      })
    },
    onParams: ({ params }) => {
      // The same door as REST (checkInputShape): variables, and NUL escapes in the query text.
      try {
        checkInputShape(params.variables ?? {}, 'variables')
        const query = params.query ?? ''
        if (query.includes('\u0000') || /\\u0000|\\u\{0+\}/i.test(query)) checkInputShape('\u0000', 'query')
        // Lone surrogates: raw ones here; escaped ones (`\udfff`) the GraphQL lexer refuses itself.
        checkText(query, 'query')
      } catch (error) {
        const refused = error as DomainError
        throw new GraphQLError(refused.message, { extensions: { code: refused.code, param: refused.param, http: { status: 400 } } })
      }
      // What a document may cost, before it is parsed and cached; one in the parse cache passed already.
      if (typeof params.query === 'string' && !documentCache.has(params.query)) checkDocumentSize(params.query, settings.limits.maxTokens)
    },
    onParse: ({ setParseFn }) => {
      // The same bound inside the parser, for every way a document reaches it.
      setParseFn((source, options) => parse(source, { ...options, maxTokens: settings.limits.maxTokens }))
    },
    onExecute: ({ args, setResultAndStopExecution }) => {
      // The cost depends on the variables (a `first: $n`), so it is measured here, before anything runs.
      const refusal = costRefusal(measureCost({ schema: args.schema, document: args.document, operationName: args.operationName, variableValues: args.variableValues }), settings.limits)
      if (refusal) setResultAndStopExecution({ errors: [refusal] })
    },
    onValidate: ({ addValidationRule }) => {
      for (const rule of rules) addValidationRule(rule)
      // GraphQL's own validation errors carry the closed code set too (CONTRACT §1).
      return ({ result, setResult }) => {
        if (result.length > 0) {
          setResult(result.map((error) => new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code: 'validation_error' } })))
        }
      }
    },
  }
  return createYoga<Record<string, never>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // Errors are logged by maskError (unexpected ones only, with the request id); client mistakes are not ours to log.
    logging: false,
    plugins: [limitsPlugin, observeGraphQLOperations<GraphQLContext>()],
    // The HTTP surface enforces the same limit as it reads (createHttpHandler); this one guards yoga.fetch.
    maxRequestBodySize: settings.limits.maxBodyBytes,
    parserAndValidationCache: {
      documentCache,
      errorCache: new WeightedCache<string, unknown>(errorCacheCharacters, (text) => text.length),
    },
    graphiql: settings.graphiql && {
      title: 'Billing service GraphQL',
      defaultQuery: '# Add your key under Headers: {"Authorization": "Bearer bk_test_..."}\n{\n  customers(first: 10) {\n    edges { node { id name email createdAt } }\n    pageInfo { hasNextPage endCursor }\n  }\n}\n',
    },
    renderGraphiQL: renderLocalGraphiQL,
    maskedErrors: { maskError: (error) => maskError(error) },
    context: ({ request }) =>
      createGraphQLContext({ services, requestId: currentRequestId() ?? 'unknown', authorization: request.headers.get('authorization'), maxResponseBytes: settings.limits.maxResponseBytes }),
  })
}
