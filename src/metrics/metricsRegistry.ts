import { collectDefaultMetrics, Registry } from 'prom-client'

/**
 * The one registry that GET /metrics serves. Any module may add its counters here (`registers:
 * [metricsRegistry]`). Labels must have a bounded set of values: route templates, operation names
 * from a closed or capped set, outcomes; never a customer, an account, a key or a raw path.
 */
export const metricsRegistry = new Registry()

collectDefaultMetrics({ register: metricsRegistry })
