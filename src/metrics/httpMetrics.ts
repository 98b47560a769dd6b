import { Counter, Histogram } from 'prom-client'
import { metricsRegistry } from './metricsRegistry'

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
})

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency, from the request line to the last byte of the answer',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
})

/** The route of any path nothing serves: one label, whatever the path. */
export const unmatchedRoute = 'unmatched'

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Methods are client text too: anything unusual is one label. */
export function methodLabel(method: string): string {
  return knownMethods.has(method) ? method : 'other'
}
