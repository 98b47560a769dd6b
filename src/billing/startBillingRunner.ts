import type { DatabaseClient } from '../database/createDatabaseClient'
import { logError, logInfo } from '../logging/log'
import { billingRunDuration, billingRuns, billingSubscriptions } from '../metrics/billingMetrics'
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
    const endTimer = billingRunDuration.startTimer()
    running = runBillingCycle(prisma)
      .then((result) => {
        billingRuns.inc({ outcome: 'done' })
        billingSubscriptions.inc({ result: 'renewed' }, result.renewed)
        billingSubscriptions.inc({ result: 'past_due' }, result.pastDue)
        billingSubscriptions.inc({ result: 'expired' }, result.expired)
        if (result.renewed + result.pastDue + result.expired > 0) logInfo('billing cycle', { ...result })
      })
      .catch((error: unknown) => {
        billingRuns.inc({ outcome: 'failed' })
        logError(error)
      })
      .finally(() => {
        endTimer()
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
