import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql'

// The introspection fields (`__schema`, `__type`) are measured apart from the query limits: the
// standard introspection query of graphql-js and GraphiQL nests about 15 levels (a field's type is a
// chain of `ofType`), deeper than any data query needs. What makes introspection costly is fan-out
// (lists inside lists: types → fields → args → type → fields …), not depth, so both are bounded here:
// the standard queries nest at most three lists and their `ofType` chains stay well under the depth.

export interface IntrospectionLimits {
  /** Levels under `__schema`/`__type`; graphql-js's default query needs 14 (typeDepth 9). */
  maxDepth: number
  /** Lists nested in one another (types, fields, args, …); the standard queries need 3. */
  maxNestedLists: number
  maxAliases: number
}

export const defaultIntrospectionLimits: IntrospectionLimits = { maxDepth: 20, maxNestedLists: 3, maxAliases: 30 }

const introspectionListFields = new Set(['types', 'directives', 'fields', 'interfaces', 'possibleTypes', 'enumValues', 'inputFields', 'args'])

export function isIntrospectionRoot(field: FieldNode): boolean {
  return field.name.value === '__schema' || field.name.value === '__type'
}

interface Measure {
  depth: number
  lists: number
  aliases: number
}

function refuse(context: ValidationContext, message: string): void {
  context.reportError(new GraphQLError(message, { extensions: { code: 'validation_error' } }))
}

export function introspectionLimitsRule(limits: IntrospectionLimits = defaultIntrospectionLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>()
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
    }

    const measure = (selectionSet: SelectionSetNode | undefined, depth: number, lists: number, seen: ReadonlySet<string>): Measure => {
      let result: Measure = { depth, lists, aliases: 0 }
      for (const selection of selectionSet?.selections ?? []) {
        let inner: Measure
        if (selection.kind === Kind.FIELD) {
          const isList = introspectionListFields.has(selection.name.value)
          const below = measure(selection.selectionSet, depth + 1, lists + (isList ? 1 : 0), seen)
          inner = { ...below, aliases: below.aliases + (selection.alias ? 1 : 0) }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          inner = measure(selection.selectionSet, depth, lists, seen)
        } else {
          const name = selection.name.value
          const fragment = fragments.get(name)
          // A fragment that spreads itself is reported by GraphQL's own rules; here it counts once.
          if (!fragment || seen.has(name)) continue
          inner = measure(fragment.selectionSet, depth, lists, new Set([...seen, name]))
        }
        result = { depth: Math.max(result.depth, inner.depth), lists: Math.max(result.lists, inner.lists), aliases: result.aliases + inner.aliases }
      }
      return result
    }

    return {
      Field(field) {
        if (!isIntrospectionRoot(field)) return
        const { depth, lists, aliases } = measure(field.selectionSet, 0, 0, new Set())
        if (depth > limits.maxDepth) refuse(context, `This introspection nests ${depth} levels deep; at most ${limits.maxDepth} are allowed`)
        if (lists > limits.maxNestedLists) refuse(context, `This introspection nests ${lists} lists; at most ${limits.maxNestedLists} are allowed`)
        if (aliases > limits.maxAliases) refuse(context, `This introspection uses ${aliases} aliases; at most ${limits.maxAliases} are allowed`)
      },
    }
  }
}
