import {
  Kind,
  getNamedType,
  parse,
  typeFromAST,
  validate,
  type DocumentNode,
  type FieldNode,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql'
import type { Scope } from '../src/accounts/scopes'
import { fieldScopes } from '../src/graphql/fieldScopesPlugin'
import type { RestRoute } from './RestRoute'

export interface CompiledRoute {
  route: RestRoute
  document: DocumentNode
  operationName: string
  pathPattern: RegExp
  pathParameters: string[]
  /** Query parameter name → variable name (each variable that is neither path nor body, plus aliases). */
  queryParameters: Map<string, string>
  variableTypes: Map<string, GraphQLInputType>
  rootField: string
  rootType: GraphQLOutputType
  /** The scopes the root field declares: the endpoint accepts exactly those (checked before the body is read). */
  scopes: readonly Scope[]
  /** Argument of the root field → the REST parameter that fills it ('' for the body). */
  parameterOfArgument: Map<string, string>
  /** Variable → the root field's argument it fills: its description, default and constraints document the parameter. */
  argumentOfVariable: Map<string, GraphQLArgument>
  isList: boolean
}

/** Parses and validates every route's operation against the schema: a bad route fails at start, not at request. */
export function compileRoutes(schema: GraphQLSchema, routes: readonly RestRoute[]): CompiledRoute[] {
  return routes.map((route) => compileRoute(schema, route))
}

function compileRoute(schema: GraphQLSchema, route: RestRoute): CompiledRoute {
  const where = `${route.method} ${route.path}`
  const document = parse(route.operation)
  const problems = validate(schema, document)
  if (problems.length > 0) throw new Error(`${where}: ${problems.map((problem) => problem.message).join('; ')}`)
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
  const operation = operations[0]
  if (operations.length !== 1 || !operation?.name) throw new Error(`${where}: needs exactly one named operation`)
  const rootSelections = operation.selectionSet.selections.filter((selection): selection is FieldNode => selection.kind === Kind.FIELD)
  const root = rootSelections[0]
  if (rootSelections.length !== 1 || !root) throw new Error(`${where}: needs exactly one root field`)

  const variableTypes = new Map<string, GraphQLInputType>()
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined
    if (!type) throw new Error(`${where}: unknown type for $${definition.variable.name.value}`)
    variableTypes.set(definition.variable.name.value, type)
  }

  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
  for (const name of pathParameters) {
    if (!variableTypes.has(name)) throw new Error(`${where}: path parameter {${name}} has no variable $${name}`)
  }
  if (route.body !== undefined && !variableTypes.has(route.body)) throw new Error(`${where}: no variable $${route.body} for the body`)
  const queryParameters = new Map<string, string>()
  for (const name of variableTypes.keys()) {
    if (!pathParameters.includes(name) && name !== route.body) queryParameters.set(name, name)
  }
  for (const [alias, variable] of Object.entries(route.queryAliases ?? {})) queryParameters.set(alias, variable)

  const parameterOfArgument = new Map<string, string>()
  for (const argument of root.arguments ?? []) {
    if (argument.value.kind === Kind.VARIABLE) {
      const variable = argument.value.name.value
      parameterOfArgument.set(argument.name.value, variable === route.body ? '' : variable)
    }
  }

  const rootParent = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType()
  const rootDefinition = rootParent?.getFields()[root.name.value]
  if (!rootDefinition) throw new Error(`${where}: unknown root field ${root.name.value}`)
  const scopes = fieldScopes(rootDefinition)
  if (scopes.length === 0) throw new Error(`${where}: root field ${root.name.value} declares no scopes, and every /v1 endpoint needs a key`)
  const rootNamed = getNamedType(rootDefinition.type)
  const isList = 'getFields' in rootNamed && 'edges' in rootNamed.getFields() && 'pageInfo' in rootNamed.getFields()

  const pattern = route.path.replace(/\{(\w+)\}/g, '([^/]+)')
  return {
    route,
    document,
    operationName: operation.name.value,
    pathPattern: new RegExp(`^${pattern}$`),
    pathParameters,
    queryParameters,
    variableTypes,
    rootField: root.alias?.value ?? root.name.value,
    rootType: rootDefinition.type,
    scopes,
    parameterOfArgument,
    argumentOfVariable: argumentsOfVariables(root, rootDefinition.args),
    isList,
  }
}

function argumentsOfVariables(root: FieldNode, definitions: readonly GraphQLArgument[]): Map<string, GraphQLArgument> {
  const found = new Map<string, GraphQLArgument>()
  for (const argument of root.arguments ?? []) {
    const definition = definitions.find((candidate) => candidate.name === argument.name.value)
    if (argument.value.kind === Kind.VARIABLE && definition) found.set(argument.value.name.value, definition)
  }
  return found
}
