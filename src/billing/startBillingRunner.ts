import type { DatabaseClient } from '../database/createDatabaseClient'
import { logError, logInfo } from '../http/log'
import { runBillingCycle } from './runBillingCycle'

export interface BillingRunner {
  /** Stops scheduling and waits for the cycle in progress to finish its current step. */
  stop(): Promise<void>
}

/** Runs the billing cycle every `intervalMilliseconds`, never two at once in this process. */
export function startBillingRunner(prisma: DatabaseClient, intervalMilliseconds: number): BillingRunner {
  let running: Promise<void> | undefined
  const tick = () => {
    if (running) return
    running = runBillingCycle(prisma)
      .then((result) => {
        if (result.renewed + result.pastDue + result.expired > 0) logInfo('billing cycle', { ...result })
      })
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
