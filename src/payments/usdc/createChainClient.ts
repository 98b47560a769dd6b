import { createPublicClient, http, type PublicClient } from 'viem'

/**
 * A JSON-RPC client for one node. Nothing is cached (a stale block number would settle too early) and
 * nothing is retried here: the callers decide (the watcher simply reads the same range again later).
 */
export function createChainClient(rpcUrl: string, timeoutMilliseconds = 10_000): PublicClient {
  return createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: timeoutMilliseconds }), cacheTime: 0, pollingInterval: 250 })
}
