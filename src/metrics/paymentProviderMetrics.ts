import { Histogram } from 'prom-client'
import { metricsRegistry } from './metricsRegistry'

// The payment providers' calls: every HTTP exchange with a PSP's API Pix and every JSON-RPC request to
// a chain node. Labels come from this service's own code (an operation template, an RPC method it
// calls, a closed set of outcomes), never from an account, a txid, an address or a URL.

const providerBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export const pixRequestDuration = new Histogram({
  name: 'pix_client_request_duration_seconds',
  help: 'HTTP calls to PSPs (API Pix), by operation (method and path template) and outcome (success, client_error, server_error, unreachable)',
  labelNames: ['operation', 'outcome'] as const,
  buckets: providerBuckets,
  registers: [metricsRegistry],
})

export const chainRequestDuration = new Histogram({
  name: 'chain_rpc_request_duration_seconds',
  help: 'JSON-RPC requests to chain nodes, by method and outcome (success, rpc_error, http_error, timeout, unreachable)',
  labelNames: ['method', 'outcome'] as const,
  buckets: providerBuckets,
  registers: [metricsRegistry],
})

export type PixOutcome = 'success' | 'client_error' | 'server_error' | 'unreachable'
export type ChainOutcome = 'success' | 'rpc_error' | 'http_error' | 'timeout' | 'unreachable'

// The API Pix paths this service calls, as templates; anything else is `other`.
const pixPathTemplates: [RegExp, string][] = [
  [/^\/oauth\/token$/, '/oauth/token'],
  [/^\/cob\/[^/?]+$/, '/cob/{txid}'],
  [/^\/pix\/[^/?]+\/devolucao\/[^/?]+$/, '/pix/{e2eid}/devolucao/{id}'],
  [/^\/pix\/[^/?]+$/, '/pix/{e2eid}'],
  [/^\/pix$/, '/pix'],
  [/^\/webhook\/[^/?]+$/, '/webhook/{chave}'],
]
const pixMethods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])

/** `PUT /cob/{txid}`: the method and the path's template, without the query. */
export function pixOperationLabel(method: string, path: string): string {
  const bare = path.split('?')[0] ?? ''
  const template = pixPathTemplates.find(([pattern]) => pattern.test(bare))?.[1]
  return template && pixMethods.has(method) ? `${method} ${template}` : 'other'
}

export function pixOutcome(status: number): PixOutcome {
  if (status >= 200 && status < 400) return 'success'
  return status >= 500 ? 'server_error' : 'client_error'
}

// JSON-RPC method names are this service's own calls (eth_blockNumber, eth_getLogs, …); the pattern
// only guards against something unexpected growing the label set.
const rpcMethodPattern = /^[a-z0-9]{1,10}_[A-Za-z0-9]{1,40}$/

export function rpcMethodLabel(method: string): string {
  return rpcMethodPattern.test(method) ? method : 'other'
}
