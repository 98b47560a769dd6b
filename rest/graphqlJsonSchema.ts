import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  Kind,
  getNamedType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql'

// JSON Schemas (OpenAPI 3.1 dialect) for the REST API, derived from the GraphQL schema: request bodies
// from input types, responses from the selection sets of the routes' operations. One source of truth.

export type JsonSchema = Record<string, unknown>

const scalarSchemas: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  EmailAddress: { type: 'string', format: 'email' },
  JSONObject: { type: 'object' },
}

function scalarSchema(type: GraphQLScalarType): JsonSchema {
  return scalarSchemas[type.name] ?? { type: 'string', description: type.description ?? type.name }
}

function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] }
}

export function inputSchema(type: GraphQLInputType): JsonSchema {
  if (type instanceof GraphQLNonNull) return inputSchemaOf(type.ofType)
  return nullable(inputSchemaOf(type))
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
      properties: Object.fromEntries(
        fields.map((field) => [field.name, { ...inputSchema(field.type), ...(field.description ? { description: field.description } : {}) }]),
      ),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    }
  }
  return scalarSchema(type as GraphQLScalarType)
}

/** The JSON shape GraphQL produces for `selection` on a field of type `type`. */
export function outputSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
  if (type instanceof GraphQLNonNull) return outputSchemaOf(type.ofType, selection)
  return nullable(outputSchemaOf(type, selection))
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
      properties[node.alias?.value ?? node.name.value] = outputSchema(field.type, node.selectionSet)
    }
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }
  }
  return scalarSchema(getNamedType(type) as GraphQLScalarType)
}
