import { Kind, getNamedType, GraphQLObjectType, type FieldNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql'
import { describeScopes } from '../src/accounts/scopes'
import { errorCodes } from '../src/domain/DomainError'
import type { CompiledRoute } from './compileRoutes'
import { inputSchema, outputSchema, queryParameterSchema, type JsonSchema } from './graphqlJsonSchema'
import { describeErrorResponses, describeSharedErrorResponses, errorEnvelopeSchema } from './describeErrorResponses'
import { describeTags, tagOfPath } from './describeTags'

/** OpenAPI 3.1 for every /v1 route, generated from the same table the router serves. */
export function buildOpenApiDocument(routes: readonly CompiledRoute[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const compiled of routes) {
    const route = compiled.route
    const operation: Record<string, unknown> = {
      operationId: compiled.operationName.charAt(0).toLowerCase() + compiled.operationName.slice(1),
      summary: route.summary,
      tags: [tagOfPath(route.path)],
      description: `${describeScopes(compiled.scopes)}${route.idempotency === 'required' ? ' Idempotency-Key header required.' : ''}`,
      'x-scopes': compiled.scopes,
      parameters: [
        ...compiled.pathParameters.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        ...[...compiled.queryParameters].map(([name, variable]) => ({
          name,
          in: 'query',
          required: false,
          schema: querySchema(compiled, variable),
          ...(name !== variable ? { description: `Alias of \`${variable}\`.` } : {}),
        })),
        ...(route.idempotency === 'ignored'
          ? []
          : [{ name: 'Idempotency-Key', in: 'header', required: route.idempotency === 'required', description: idempotencyKeyDescription, schema: { type: 'string', minLength: 1, maxLength: 255 } }]),
      ],
      responses: {
        [String(route.successStatus ?? 200)]: {
          description: 'Success',
          content: { 'application/json': { schema: successSchema(compiled) } },
        },
        ...describeErrorResponses(compiled),
      },
    }
    if (route.body !== undefined) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: inputSchema(compiled.variableTypes.get(route.body)!, compiled.argumentOfVariable.get(route.body)) } },
      }
    }
    const openApiPath = route.path
    paths[openApiPath] ??= {}
    paths[openApiPath][route.method.toLowerCase()] = operation
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Billing and entitlement service', version: '1.0.0' },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: {
        ErrorEnvelope: errorEnvelopeSchema(errorCodes),
      },
      responses: describeSharedErrorResponses(routes),
    },
    tags: describeTags(routes.map((compiled) => tagOfPath(compiled.route.path))),
  }
}

const idempotencyKeyDescription =
  'A unique string per request (e.g. a UUID), kept 24 hours: a repeat with the same method, path and body replays the stored answer with `Idempotent-Replayed: true`.'

/** A query parameter: its argument's constraints and default, not its description, which speaks GraphQL (`first`, `after`). */
function querySchema(compiled: CompiledRoute, variable: string): JsonSchema {
  const argument = compiled.argumentOfVariable.get(variable)
  return queryParameterSchema(compiled.variableTypes.get(variable)!, { extensions: argument?.extensions, defaultValue: argument?.defaultValue })
}

function successSchema(compiled: CompiledRoute): JsonSchema {
  const root = rootField(compiled)
  let data: JsonSchema
  if (compiled.isList) {
    const connection = getNamedType(compiled.rootType) as GraphQLObjectType
    const edgeType = getNamedType(connection.getFields().edges!.type) as GraphQLObjectType
    const nodeSelection = subSelection(subSelection(root.selectionSet, 'edges'), 'node')
    data = {
      type: 'object',
      required: ['items', 'hasMore', 'nextCursor'],
      properties: {
        items: { type: 'array', items: outputSchema(edgeType.getFields().node!.type, nodeSelection) },
        hasMore: { type: 'boolean' },
        nextCursor: { type: ['string', 'null'] },
      },
      additionalProperties: false,
    }
  } else {
    data = outputSchema(compiled.rootType, root.selectionSet)
  }
  return {
    type: 'object',
    required: ['data', 'error', 'success'],
    properties: { data, error: { type: 'null' }, success: { const: true } },
  }
}

function rootField(compiled: CompiledRoute): FieldNode {
  const operation = compiled.document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode
  return operation.selectionSet.selections[0] as FieldNode
}

function subSelection(selection: SelectionSetNode | undefined, name: string): SelectionSetNode | undefined {
  const field = selection?.selections.find((node): node is FieldNode => node.kind === Kind.FIELD && node.name.value === name)
  return field?.selectionSet
}
