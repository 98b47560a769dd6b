import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql'
import { isIntrospectionRoot } from './introspectionLimits'

// Limits on what one GraphQL document may ask for, checked before anything runs: how deep it nests and
// how many aliases it uses (aliases multiply work without multiplying requests), here when the document
// is validated; and an estimated cost in fields read, which depends on the variables, when it is about
// to execute (measureCost.ts, checked by the yoga plugin in createYogaServer.ts).

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
  /** Bytes all responses of the process may hold at once (ResponseBytesInFlight); 0 for no limit. */
  maxResponseBytesInFlight: number
}

export const defaultQueryLimits: QueryLimits = { maxDepth: 12, maxAliases: 30, maxCost: 50_000, maxBodyBytes: 100_000, maxTokens: 2_000, maxResponseBytes: 16_000_000, maxResponseBytesInFlight: 48_000_000 }

function refuse(context: ValidationContext, message: string): void {
  context.reportError(new GraphQLError(message, { extensions: { code: 'validation_error' } }))
}

export function queryLimitsRule(limits: QueryLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>()
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
    }

    const measure = (selectionSet: SelectionSetNode | undefined, depth: number, seen: Set<string>): { depth: number; aliases: number } => {
      let result = { depth, aliases: 0 }
      for (const selection of selectionSet?.selections ?? []) {
        let inner: { depth: number; aliases: number }
        if (selection.kind === Kind.FIELD) {
          // Introspection has limits of its own (introspectionLimits.ts): here it is one field.
          const below = isIntrospectionRoot(selection) ? { depth: depth + 1, aliases: 0 } : measure(selection.selectionSet, depth + 1, seen)
          inner = { depth: below.depth, aliases: below.aliases + (selection.alias ? 1 : 0) }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          inner = measure(selection.selectionSet, depth, seen)
        } else {
          const name = selection.name.value
          const fragment = fragments.get(name)
          // A fragment that spreads itself is reported by GraphQL's own rules; here it counts once.
          if (!fragment || seen.has(name)) continue
          inner = measure(fragment.selectionSet, depth, new Set([...seen, name]))
        }
        result = { depth: Math.max(result.depth, inner.depth), aliases: result.aliases + inner.aliases }
      }
      return result
    }

    return {
      OperationDefinition(operation) {
        const { depth, aliases } = measure(operation.selectionSet, 0, new Set())
        if (depth > limits.maxDepth) refuse(context, `This query nests ${depth} levels deep; at most ${limits.maxDepth} are allowed`)
        if (aliases > limits.maxAliases) refuse(context, `This query uses ${aliases} aliases; at most ${limits.maxAliases} are allowed`)
      },
    }
  }
}

/** The refusal of an operation whose cost, with its variables, is over the limit (before it runs). */
export function costRefusal(cost: number, limits: QueryLimits): GraphQLError | undefined {
  if (cost <= limits.maxCost) return undefined
  return new GraphQLError(`This query could read about ${cost} fields; at most ${limits.maxCost} are allowed (ask for smaller pages)`, {
    extensions: { code: 'validation_error', http: { status: 400 } },
  })
}
