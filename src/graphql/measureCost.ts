import {
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql'
import { isIntrospectionRoot } from './introspectionLimits'

// What one operation may read, with the values it will actually run with: a connection's `first` or
// `last` (literal, variable, the variable's default, or the list's default page size) multiplies what
// its edges read, and the number of ids given to `nodes(ids:)` multiplies what each node reads. Each
// field counts 1 per parent it is read for (`totalCount` and `pageInfo`: once per connection). A plain
// list (not a connection) multiplies what its items read by its size: the size its field declares in
// its extensions (CostExtensions), else plainListSize.

/** What a connection returns when neither `first` nor `last` is given. */
const defaultPageSize = 100

/** The size counted for a plain list of objects that declares none (a subscription's invoices, …). */
export const plainListSize = 10

/** What a field may declare in its GraphQL extensions for the cost rule. */
export interface CostExtensions {
  /** A field that holds series (`metrics`): how many buckets its arguments make them. */
  seriesBuckets?: (args: Record<string, unknown>) => number
  /** A series: one item per bucket of the series field above it. */
  perBucket?: true
  /** A plain list: its size from its arguments (`topCustomers(limit:)`). */
  listSize?: (args: Record<string, unknown>) => number
}

export interface CostInput {
  schema: GraphQLSchema
  document: DocumentNode
  operationName?: string | null
  variableValues?: Record<string, unknown> | null
}

function findOperation(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
  return operationName ? operations.find((operation) => operation.name?.value === operationName) : operations[0]
}

/** The operation's estimated cost in fields read; 0 when the operation is not found (GraphQL refuses it itself). */
export function measureCost(input: CostInput): number {
  const operation = findOperation(input.document, input.operationName)
  if (!operation) return 0
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of input.document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)

  const variables: Record<string, unknown> = {}
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value
    const given = input.variableValues?.[name]
    variables[name] = given !== undefined ? given : definition.defaultValue ? valueFromASTUntyped(definition.defaultValue) : undefined
  }
  const valueOf = (node: ValueNode | undefined): unknown => (node === undefined ? undefined : valueFromASTUntyped(node, variables))

  /**
   * `pageSize` is set inside a connection: its `edges` (and `nodes`) are read once per item of the page,
   * while `totalCount` and `pageInfo` are read once per connection.
   */
  const measure = (selectionSet: SelectionSetNode | undefined, parent: GraphQLNamedType | undefined, multiplier: number, seen: Set<string>, pageSize = 1, buckets = 1): number => {
    let cost = 0
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        // Introspection has limits of its own (introspectionLimits.ts): here it is one field.
        if (isIntrospectionRoot(selection)) {
          cost += multiplier
          continue
        }
        const name = selection.name.value
        const definition = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name] : undefined
        const type = definition ? getNamedType(definition.type) : undefined
        const argument = (argumentName: string) => valueOf(selection.arguments?.find((candidate) => candidate.name.value === argumentName)?.value)
        const takes = (argumentName: string) => definition?.args.some((candidate) => candidate.name === argumentName) ?? false
        const declared = (definition?.extensions ?? {}) as CostExtensions
        const argumentValues = () => Object.fromEntries((definition?.args ?? []).map((candidate) => [candidate.name, argument(candidate.name) ?? candidate.defaultValue]))
        const returnsList = definition !== undefined && isListType(getNullableType(definition.type)) && (isObjectType(type) || isInterfaceType(type))
        let below: number
        if (declared.seriesBuckets) {
          below = measure(selection.selectionSet, type, multiplier, seen, 1, atLeastOne(declared.seriesBuckets(argumentValues())))
        } else if (declared.perBucket) {
          below = measure(selection.selectionSet, type, multiplier * buckets, seen, 1, buckets)
        } else if (declared.listSize) {
          below = measure(selection.selectionSet, type, multiplier * atLeastOne(declared.listSize(argumentValues())), seen, 1, buckets)
        } else if (takes('first')) {
          // A connection: its page size, as the query will run it.
          const size = argument('first') ?? (takes('last') ? argument('last') : undefined) ?? defaultPageSize
          const items = typeof size === 'number' && Number.isFinite(size) ? Math.max(1, Math.ceil(size)) : defaultPageSize
          below = measure(selection.selectionSet, type, multiplier, seen, items)
        } else if (name === 'nodes' && takes('ids')) {
          const ids = argument('ids')
          below = measure(selection.selectionSet, type, multiplier * (Array.isArray(ids) ? Math.max(1, ids.length) : 1), seen)
        } else if (name === 'edges' || name === 'nodes') {
          below = measure(selection.selectionSet, type, multiplier * pageSize, seen)
        } else if (returnsList) {
          below = measure(selection.selectionSet, type, multiplier * plainListSize, seen, 1, buckets)
        } else {
          below = measure(selection.selectionSet, type, multiplier, seen, 1, buckets)
        }
        cost += multiplier + below
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? input.schema.getType(selection.typeCondition.name.value) : parent
        cost += measure(selection.selectionSet, type ?? undefined, multiplier, seen, pageSize, buckets)
      } else {
        const name = selection.name.value
        const fragment = fragments.get(name)
        // A fragment that spreads itself is reported by GraphQL's own rules; here it counts once.
        if (!fragment || seen.has(name)) continue
        cost += measure(fragment.selectionSet, input.schema.getType(fragment.typeCondition.name.value) ?? undefined, multiplier, new Set([...seen, name]), pageSize, buckets)
      }
    }
    return cost
  }

  const root = operation.operation === 'mutation' ? input.schema.getMutationType() : operation.operation === 'subscription' ? input.schema.getSubscriptionType() : input.schema.getQueryType()
  return measure(operation.selectionSet, root ?? undefined, 1, new Set())
}

/** A declared size that is not a positive number (arguments GraphQL will refuse anyway) counts as 1. */
function atLeastOne(size: number): number {
  return Number.isFinite(size) ? Math.max(1, Math.ceil(size)) : 1
}
