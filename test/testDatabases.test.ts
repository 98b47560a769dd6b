import { spawn } from 'node:child_process'
import { expect, test } from 'vitest'
import { isLeftByDeadRun } from './support/globalSetup'

// A test run drops only what runs that are gone left behind: two runs of `npm test` on one PostgreSQL
// (two clones, CI beside a developer) must not drop each other's databases mid-run.

async function pidOfAnExitedProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

test("a concurrent run's databases are kept; a dead run's are dropped; this run's are its own", async () => {
  const ownPid = process.pid
  const concurrentRun = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' })
  try {
    const deadPid = await pidOfAnExitedProcess()
    expect(isLeftByDeadRun(`billing_test_${concurrentRun.pid}_customers`, ownPid)).toBe(false)
    expect(isLeftByDeadRun(`billing_test_${concurrentRun.pid}_template`, ownPid)).toBe(false)
    expect(isLeftByDeadRun(`billing_test_${deadPid}_customers`, ownPid)).toBe(true)
    expect(isLeftByDeadRun(`billing_test_${ownPid}_customers`, ownPid, () => false)).toBe(false)
    // Names of another shape (an older scheme, someone's own database) are never touched.
    expect(isLeftByDeadRun('billing_test_template', ownPid, () => false)).toBe(false)
    expect(isLeftByDeadRun('billing_test_customers_1', ownPid, () => false)).toBe(false)
  } finally {
    concurrentRun.kill('SIGKILL')
  }
})
