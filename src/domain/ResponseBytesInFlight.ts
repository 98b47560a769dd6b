/**
 * Bytes of responses this process is building or sending at once (GRAPHQL_MAX_RESPONSE_BYTES_IN_FLIGHT).
 * Each response is bounded on its own (GRAPHQL_MAX_RESPONSE_BYTES), but sixteen of the largest at once
 * took the 256 MB heap of `npm start` down (npm run bench:memory). Lists take their bytes here before
 * they read their rows, and give them back when the response that took them is finished.
 */
export class ResponseBytesInFlight {
  private taken = 0

  /** `limit` 0 turns the budget off. */
  constructor(readonly limit: number) {}

  /**
   * Takes `bytes`, or answers false when they would pass the limit. While nothing else is in flight a
   * response always gets its bytes: the per-response budget bounds it alone, and it cannot starve.
   */
  tryTake(bytes: number): boolean {
    if (this.limit > 0 && this.taken > 0 && this.taken + bytes > this.limit) return false
    this.taken += bytes
    return true
  }

  give(bytes: number): void {
    this.taken = Math.max(0, this.taken - bytes)
  }

  get inFlight(): number {
    return this.taken
  }
}
