import { createPublicClient, http, HttpRequestError, RpcRequestError, TimeoutError, type PublicClient, type Transport } from 'viem'
import { chainRequestDuration, rpcMethodLabel, type ChainOutcome } from '../../metrics/paymentProviderMetrics'

/**
 * A JSON-RPC client for one node. Nothing is cached (a stale block number would settle too early) and
 * nothing is retried here: the callers decide (the watcher simply reads the same range again later).
 * Every request is timed in `chain_rpc_request_duration_seconds` by method and outcome.
 */
export function createChainClient(rpcUrl: string, timeoutMilliseconds = 10_000): PublicClient {
  return createPublicClient({ transport: observeRequests(http(rpcUrl, { retryCount: 0, timeout: timeoutMilliseconds })), cacheTime: 0, pollingInterval: 250 })
}

function observeRequests<T extends Transport>(transport: T): T {
  const observed = ((parameters) => {
    const created = transport(parameters)
    const request = (async (args: { method: string }, options?: Parameters<typeof created.request>[1]) => {
      const endTimer = chainRequestDuration.startTimer({ method: rpcMethodLabel(args.method) })
      try {
        const result = await created.request(args as Parameters<typeof created.request>[0], options)
        endTimer({ outcome: 'success' })
        return result
      } catch (error) {
        endTimer({ outcome: chainOutcome(error) })
        throw error
      }
    }) as typeof created.request
    return { ...created, request }
  }) as T
  return observed
}

// viem wraps what the transport threw (an RpcRequestError becomes InvalidParamsRpcError, …), so the
// original is looked for along the causes.
function chainOutcome(error: unknown): ChainOutcome {
  const causes: unknown[] = []
  for (let cause = error; cause instanceof Error && causes.length < 10; cause = cause.cause) causes.push(cause)
  if (causes.some((cause) => cause instanceof TimeoutError)) return 'timeout'
  if (causes.some((cause) => cause instanceof RpcRequestError)) return 'rpc_error'
  // A connection that never answered is an HttpRequestError without a status.
  const http = causes.find((cause): cause is HttpRequestError => cause instanceof HttpRequestError)
  return http?.status === undefined ? 'unreachable' : 'http_error'
}
