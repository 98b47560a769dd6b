import { Histogram } from 'prom-client'
import { metricsRegistry } from './metricsRegistry'

export const graphqlOperationDuration = new Histogram({
  name: 'graphql_operation_duration_seconds',
  help: 'GraphQL operations executed, by operation name, type and outcome',
  labelNames: ['operation', 'type', 'outcome'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
})

// Operation names are chosen by clients: a bounded number of distinct names get a label of their own
// (the first ones seen, which in practice are the integrations' fixed operations); the rest share one.
const maxOperationNames = 200
const seenOperationNames = new Set<string>()
const saneOperationName = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

export function operationLabel(name: string | undefined | null): string {
  if (!name) return 'anonymous'
  if (!saneOperationName.test(name)) return 'other'
  if (seenOperationNames.has(name)) return name
  if (seenOperationNames.size >= maxOperationNames) return 'other'
  seenOperationNames.add(name)
  return name
}
