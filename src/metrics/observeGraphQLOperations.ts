import { getOperationAST } from 'graphql'
import type { Plugin } from 'graphql-yoga'
import { graphqlOperationDuration, operationLabel } from './graphqlMetrics'

/** A Yoga plugin timing each executed operation, labelled by its (bounded) name, type and outcome. */
export function observeGraphQLOperations<Context extends object>(): Plugin<Context> {
  return {
    onExecute: ({ args }) => {
      const operation = getOperationAST(args.document, args.operationName)
      const labels = { operation: operationLabel(operation?.name?.value ?? args.operationName), type: operation?.operation ?? 'unknown' }
      const endTimer = graphqlOperationDuration.startTimer()
      return {
        onExecuteDone: ({ result }) => {
          const failed = 'errors' in result && Array.isArray(result.errors) && result.errors.length > 0
          endTimer({ ...labels, outcome: failed ? 'error' : 'ok' })
        },
      }
    },
  }
}
