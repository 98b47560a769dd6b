type Outcome<Result> = { value: Result } | { error: unknown }

export interface BatcherOptions {
  maxBatchSize?: number
  maxConcurrentBatches?: number
  /** A failure of the whole batch worth running it again as it is (a conflict between transactions). */
  isRetryable?: (error: unknown) => boolean
  /**
   * A failure of the whole batch that may be one item's doing (PostgreSQL refusing one item's values
   * rolls back the statement for all): the batch is split and its halves run apart, down to single
   * items, so that only the item that fails alone fails. Not for failures that would fail any batch
   * (an unreachable database): those fail every item at once.
   */
  isIsolatable?: (error: unknown) => boolean
  /** What a single item's own failure becomes for its caller (e.g. a database refusal of its values → 400). */
  describeItemFailure?: (error: unknown) => unknown
  observer?: BatchObserver
}

export interface BatchObserver {
  /** A batch of `size` items starts; each item waited the given seconds since it was submitted. */
  started(size: number, waitsInSeconds: number[]): void
  /** The batch ended (answered or failed), `seconds` after it started. */
  finished(seconds: number): void
}

/**
 * Gathers calls that arrive together into one batch for `run`, which answers each item in order
 * (a value or an error of its own). A batch closes when the running ones finish or when it is full;
 * up to `maxConcurrentBatches` run at once. A whole batch that fails with a retryable error (a
 * deadlock or serialization failure between concurrent transactions, which roll back whole) is run
 * again; one that fails with an isolatable error is bisected until the failing items stand alone;
 * any other failure of the whole batch is every item's failure. Every caller is answered exactly
 * once, even when `run` answers fewer outcomes than items.
 */
export class Batcher<Item, Result> {
  private queue: { item: Item; submittedAt: number; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = []
  private running = 0

  constructor(
    private readonly run: (items: Item[]) => Promise<Outcome<Result>[]>,
    private readonly options: BatcherOptions = {},
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, submittedAt: performance.now(), resolve, reject })
      if (this.running < (this.options.maxConcurrentBatches ?? 2)) setImmediate(() => this.flush())
    })
  }

  private flush(): void {
    if (this.queue.length === 0 || this.running >= (this.options.maxConcurrentBatches ?? 2)) return
    const batch = this.queue.splice(0, this.options.maxBatchSize ?? 256)
    this.running += 1
    const startedAt = performance.now()
    this.options.observer?.started(
      batch.length,
      batch.map((pending) => (startedAt - pending.submittedAt) / 1000),
    )
    void this.execute(batch).finally(() => {
      this.options.observer?.finished((performance.now() - startedAt) / 1000)
      this.running -= 1
      this.flush()
    })
  }

  private async execute(batch: typeof this.queue): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      let outcomes: Outcome<Result>[]
      try {
        outcomes = await this.run(batch.map((pending) => pending.item))
      } catch (error) {
        if (attempt < 4 && this.options.isRetryable?.(error)) continue
        if (this.options.isIsolatable?.(error)) {
          if (batch.length > 1) {
            const half = Math.ceil(batch.length / 2)
            await Promise.all([this.execute(batch.slice(0, half)), this.execute(batch.slice(half))])
            return
          }
          batch[0]?.reject(this.options.describeItemFailure?.(error) ?? error)
          return
        }
        for (const pending of batch) pending.reject(error)
        return
      }
      batch.forEach((pending, index) => {
        const outcome = outcomes[index]
        if (outcome === undefined) pending.reject(new Error(`The batch answered ${outcomes.length} outcomes for ${batch.length} items`))
        else if ('value' in outcome) pending.resolve(outcome.value)
        else pending.reject(outcome.error)
      })
      return
    }
  }
}

/** PostgreSQL's deadlock (40P01) and serialization failure (40001), wherever the driver put the code. */
export function isTransactionConflict(error: unknown): boolean {
  return /40P01|40001/.test(JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})))
}
