/**
 * Bytes of responses this process is building or sending at once (GRAPHQL_MAX_RESPONSE_BYTES_IN_FLIGHT).
 * Each response is bounded on its own (GRAPHQL_MAX_RESPONSE_BYTES), but sixteen of the largest at once
 * took the 256 MB heap of `npm start` down (npm run bench:memory). Lists take their bytes here before
 * they read their rows, and give them back when the response that took them is finished.
 *
 * One account may hold at most half of the budget, so that its large responses alone cannot turn every
 * other account's requests away: another account always finds the other half.
 */
export class ResponseBytesInFlight {
  private taken = 0
  private readonly takenBy = new Map<string, number>()

  /** `limit` 0 turns the budget off. */
  constructor(readonly limit: number) {}

  /**
   * Takes `bytes` for `holder` (an account), or answers false when they would pass the limit or the
   * holder's share. While a holder has nothing in flight, it gets its bytes as long as the process
   * does: the per-response budget bounds one response, and a holder cannot be starved by itself.
   */
  tryTake(bytes: number, holder: string): boolean {
    const held = this.takenBy.get(holder) ?? 0
    if (this.limit > 0) {
      if (this.taken > 0 && this.taken + bytes > this.limit) return false
      if (held > 0 && held + bytes > this.limit / 2) return false
    }
    this.taken += bytes
    this.takenBy.set(holder, held + bytes)
    return true
  }

  give(bytes: number, holder: string): void {
    this.taken = Math.max(0, this.taken - bytes)
    const left = (this.takenBy.get(holder) ?? 0) - bytes
    if (left > 0) this.takenBy.set(holder, left)
    else this.takenBy.delete(holder)
  }

  get inFlight(): number {
    return this.taken
  }
}
