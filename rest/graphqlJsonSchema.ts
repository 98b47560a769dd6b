import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  Kind,
  astFromValue,
  getNamedType,
  valueFromASTUntyped,
  type GraphQLInputType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql'

// JSON Schemas (OpenAPI 3.1 dialect) for the REST API, derived from the GraphQL schema: request bodies
// from input types, responses from the selection sets of the routes' operations. One source of truth:
// what GraphQL's types cannot say (ranges, patterns, sizes) comes from each field's, argument's or input
// field's `extensions.jsonSchema` (src/graphql/jsonSchemaExtensions.ts), defaults from GraphQL's defaults.

export type JsonSchema = Record<string, unknown>

/** A field, argument or input field: what it adds to the schema of its type. */
export interface SchemaSource {
  description?: string | null | undefined
  extensions?: Readonly<Record<string, unknown>> | null | undefined
  defaultValue?: unknown
}

const scalarSchemas: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  EmailAddress: { type: 'string', format: 'email' },
  // An open record: generated clients type it as one (a bare `type: object` is an empty record to some).
  JSONObject: { type: 'object', additionalProperties: true },
}

function scalarSchema(type: GraphQLScalarType): JsonSchema {
  return scalarSchemas[type.name] ?? { type: 'string', description: type.description ?? type.name }
}

function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] }
}

/** The source's keywords narrow the value itself, so they go inside `anyOf` when the value may be null. */
function narrowed(schema: JsonSchema, isNullable: boolean, source: SchemaSource | undefined, type: GraphQLInputType | undefined): JsonSchema {
  const { description: extraDescription, ...keywords } = (source?.extensions?.jsonSchema ?? {}) as JsonSchema
  const value = { ...schema, ...keywords }
  const description = [source?.description, extraDescription].filter((text) => typeof text === 'string' && text !== '').join(' ')
  const defaultValue = type && source?.defaultValue !== undefined ? astFromValue(source.defaultValue, type) : null
  return {
    ...(isNullable ? nullable(value) : value),
    ...(description ? { description } : {}),
    ...(defaultValue ? { default: valueFromASTUntyped(defaultValue) } : {}),
  }
}

/** A request value of `type`, narrowed by the field, argument or input field it fills. */
export function inputSchema(type: GraphQLInputType, source?: SchemaSource): JsonSchema {
  return narrowed(inputSchemaOf(type), !(type instanceof GraphQLNonNull), source, type)
}

/** A query parameter: text cannot carry null, so an absent parameter is the only way to leave it out. */
export function queryParameterSchema(type: GraphQLInputType, source?: SchemaSource): JsonSchema {
  return narrowed(inputSchemaOf(type), false, source, type)
}

function inputSchemaOf(type: GraphQLInputType): JsonSchema {
  if (type instanceof GraphQLNonNull) return inputSchemaOf(type.ofType)
  if (type instanceof GraphQLList) return { type: 'array', items: inputSchema(type.ofType) }
  if (type instanceof GraphQLEnumType) return { type: 'string', enum: type.getValues().map((value) => value.name) }
  if (type instanceof GraphQLInputObjectType) {
    const fields = Object.values(type.getFields())
    const required = fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name)
    return {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      properties: Object.fromEntries(fields.map((field) => [field.name, inputSchema(field.type, field)])),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    }
  }
  return scalarSchema(type as GraphQLScalarType)
}

/** The JSON shape GraphQL produces for `selection` on a field of type `type` (narrowed by the field, if given). */
export function outputSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined, field?: SchemaSource): JsonSchema {
  return narrowed(outputSchemaOf(type, selection), !(type instanceof GraphQLNonNull), field, undefined)
}

function outputSchemaOf(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
  if (type instanceof GraphQLNonNull) return outputSchemaOf(type.ofType, selection)
  if (type instanceof GraphQLList) return { type: 'array', items: outputSchema(type.ofType, selection) }
  if (type instanceof GraphQLEnumType) return { type: 'string', enum: type.getValues().map((value) => value.name) }
  if (type instanceof GraphQLUnionType && selection) {
    // A union is selected member by member (`... on Member { … }`): the value is one of them.
    return {
      anyOf: selection.selections.map((node) => {
        const member = node.kind === Kind.INLINE_FRAGMENT ? type.getTypes().find((candidate) => candidate.name === node.typeCondition?.name.value) : undefined
        if (!member || node.kind !== Kind.INLINE_FRAGMENT) throw new Error(`REST selects the members of ${type.name} with inline fragments on its member types`)
        return outputSchemaOf(member, node.selectionSet)
      }),
    }
  }
  if (type instanceof GraphQLObjectType && selection) {
    const fields = type.getFields()
    const properties: Record<string, JsonSchema> = {}
    for (const node of selection.selections) {
      if (node.kind !== Kind.FIELD) throw new Error('REST operations select plain fields only')
      const field = fields[node.name.value]
      if (!field) throw new Error(`unknown field ${type.name}.${node.name.value}`)
      properties[node.alias?.value ?? node.name.value] = outputSchema(field.type, node.selectionSet, field)
    }
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }
  }
  return scalarSchema(getNamedType(type) as GraphQLScalarType)
}
