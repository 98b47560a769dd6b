import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql'
import { isIntrospectionRoot } from './introspectionLimits'

// Limits on what one GraphQL document may ask for, checked before anything runs: how deep it nests,
// how many aliases it uses (aliases multiply work without multiplying requests), and an estimated
// cost in fields read, where a connection's `first` (100 when not a literal) multiplies what is under it.

export interface QueryLimits {
  maxDepth: number
  maxAliases: number
  maxCost: number
  /** Bytes of one POST /graphql body (document and variables); checked while it is read. */
  maxBodyBytes: number
  /** Tokens of one document, checked before it is parsed (and so before it can enter the parse cache). */
  maxTokens: number
  /** Bytes one response may hold, charged by lists before they read their rows (GraphQLContext.ts). */
  maxResponseBytes: number
}

export const defaultQueryLimits: QueryLimits = { maxDepth: 12, maxAliases: 30, maxCost: 50_000, maxBodyBytes: 100_000, maxTokens: 2_000, maxResponseBytes: 16_000_000 }

const unknownPageSize = 100

function refuse(context: ValidationContext, message: string): void {
  context.reportError(new GraphQLError(message, { extensions: { code: 'validation_error' } }))
}

export function queryLimitsRule(limits: QueryLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>()
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
    }

    const measure = (selectionSet: SelectionSetNode | undefined, multiplier: number, depth: number, seen: Set<string>): { depth: number; cost: number; aliases: number } => {
      let result = { depth, cost: 0, aliases: 0 }
      for (const selection of selectionSet?.selections ?? []) {
        let inner: { depth: number; cost: number; aliases: number }
        if (selection.kind === Kind.FIELD) {
          const first = selection.arguments?.find((argument) => argument.name.value === 'first')
          const pageSize = first ? (first.value.kind === Kind.INT ? Number(first.value.value) : unknownPageSize) : 1
          // Introspection has limits of its own (introspectionLimits.ts): here it is one field.
          const below = isIntrospectionRoot(selection)
            ? { depth: depth + 1, cost: 0, aliases: 0 }
            : measure(selection.selectionSet, multiplier * Math.max(pageSize, 1), depth + 1, seen)
          inner = { depth: below.depth, cost: multiplier + below.cost, aliases: below.aliases + (selection.alias ? 1 : 0) }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          inner = measure(selection.selectionSet, multiplier, depth, seen)
        } else {
          const name = selection.name.value
          const fragment = fragments.get(name)
          // A fragment that spreads itself is reported by GraphQL's own rules; here it counts once.
          if (!fragment || seen.has(name)) continue
          inner = measure(fragment.selectionSet, multiplier, depth, new Set([...seen, name]))
        }
        result = { depth: Math.max(result.depth, inner.depth), cost: result.cost + inner.cost, aliases: result.aliases + inner.aliases }
      }
      return result
    }

    return {
      OperationDefinition(operation) {
        const { depth, cost, aliases } = measure(operation.selectionSet, 1, 0, new Set())
        if (depth > limits.maxDepth) refuse(context, `This query nests ${depth} levels deep; at most ${limits.maxDepth} are allowed`)
        if (aliases > limits.maxAliases) refuse(context, `This query uses ${aliases} aliases; at most ${limits.maxAliases} are allowed`)
        if (cost > limits.maxCost) refuse(context, `This query could read about ${cost} fields; at most ${limits.maxCost} are allowed (ask for smaller pages)`)
      },
    }
  }
}
