/** What one client connection may hold (README, Configuration): a slow or idle client is cut off. */
export interface HttpLimits {
  /** Whole request, headers and body, in milliseconds. */
  requestTimeoutMs: number
  /** Headers alone, in milliseconds (a client trickling them holds a connection). */
  headersTimeoutMs: number
  /** Open connections at most; more are refused at once. */
  maxConnections: number
}

export const defaultHttpLimits: HttpLimits = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, maxConnections: 2_000 }
