import type { Database } from '../../domain/DomainContext'
import { logError } from '../../logging/log'
import { runPixWork } from './runPixWork'

export interface PixWorker {
  /** Stops scheduling and waits for the pass in progress. */
  stop(): Promise<void>
}

/** Runs runPixWork every `intervalMilliseconds` in the server process, never two passes at once. */
export function startPixWorker(db: Database, intervalMilliseconds: number): PixWorker {
  let running: Promise<void> | undefined
  const tick = () => {
    if (running) return
    running = runPixWork(db)
      .catch((error: unknown) => logError(error))
      .finally(() => {
        running = undefined
      })
  }
  const timer = setInterval(tick, intervalMilliseconds)
  timer.unref()
  setImmediate(tick)
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
