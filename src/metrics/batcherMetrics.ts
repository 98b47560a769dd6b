import { Histogram } from 'prom-client'
import type { BatchObserver } from '../domain/Batcher'
import { metricsRegistry } from './metricsRegistry'

const batchSize = new Histogram({
  name: 'batcher_batch_size',
  help: 'Items per batch of a hot path (usage events: one commit; access checks: one read)',
  labelNames: ['batcher'] as const,
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  registers: [metricsRegistry],
})

const batchWait = new Histogram({
  name: 'batcher_wait_seconds',
  help: 'Time an item waited in the queue before its batch started',
  labelNames: ['batcher'] as const,
  buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [metricsRegistry],
})

const batchDuration = new Histogram({
  name: 'batcher_batch_duration_seconds',
  help: 'Time a batch took to run, retries included',
  labelNames: ['batcher'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
})

/** The observer that records one hot path's batches under `name` (a fixed name per batcher). */
export function observeBatches(name: 'usage_events' | 'access_checks'): BatchObserver {
  return {
    started(size, waitsInSeconds) {
      batchSize.observe({ batcher: name }, size)
      for (const wait of waitsInSeconds) batchWait.observe({ batcher: name }, wait)
    },
    finished(seconds) {
      batchDuration.observe({ batcher: name }, seconds)
    },
  }
}
