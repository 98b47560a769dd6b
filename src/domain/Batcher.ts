/**
 * Gathers calls that arrive together into one batch for `run`, which answers each item in order
 * (a value or an error of its own). A batch closes when the running ones finish or when it is full;
 * up to `maxConcurrentBatches` run at once. A whole batch that fails with a retryable error (a
 * deadlock or serialization failure between concurrent transactions, which roll back whole) is run
 * again; any other failure of the whole batch is every item's failure.
 */
export interface BatchObserver {
  /** A batch of `size` items starts; each item waited the given seconds since it was submitted. */
  started(size: number, waitsInSeconds: number[]): void
  /** The batch ended (answered or failed), `seconds` after it started. */
  finished(seconds: number): void
}

export class Batcher<Item, Result> {
  private queue: { item: Item; submittedAt: number; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = []
  private running = 0

  constructor(
    private readonly run: (items: Item[]) => Promise<({ value: Result } | { error: unknown })[]>,
    private readonly options: { maxBatchSize?: number; maxConcurrentBatches?: number; isRetryable?: (error: unknown) => boolean; observer?: BatchObserver } = {},
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
      try {
        const outcomes = await this.run(batch.map((pending) => pending.item))
        outcomes.forEach((outcome, index) => {
          const pending = batch[index]!
          if ('value' in outcome) pending.resolve(outcome.value)
          else pending.reject(outcome.error)
        })
        return
      } catch (error) {
        if (attempt < 4 && this.options.isRetryable?.(error)) continue
        for (const pending of batch) pending.reject(error)
        return
      }
    }
  }
}

/** PostgreSQL's deadlock (40P01) and serialization failure (40001), wherever the driver put the code. */
export function isTransactionConflict(error: unknown): boolean {
  return /40P01|40001/.test(JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})))
}
