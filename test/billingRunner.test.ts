import { spawn, type ChildProcess } from 'node:child_process'
import pg from 'pg'
import { describe, expect, test } from 'vitest'
import { seedDueSubscriptions } from './support/seedDueSubscriptions'
import { createTestDatabase } from './support/testDatabase'

// The billing clock keeps "exactly once" with several processes running it at the same time, and
// when a process dies in the middle of a run.

function runBilling(databaseUrl: string): { child: ChildProcess; done: Promise<number | null>; renewed: () => number } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/billing.ts', 'run'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return {
    child,
    done: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    renewed: () => (JSON.parse(output) as { renewed: number }).renewed,
  }
}

async function invoiceCounts(databaseUrl: string, accountId: string) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const result = await client.query<{ invoices: string; periods: string; stillDue: string; doubled: string }>(
      `SELECT (SELECT COUNT(*) FROM "Invoice" WHERE "accountId" = $1) AS invoices,
              (SELECT COUNT(DISTINCT ("subscriptionId", "periodStart")) FROM "Invoice" WHERE "accountId" = $1) AS periods,
              (SELECT COUNT(*) FROM "Subscription" WHERE "accountId" = $1 AND "currentPeriodEnd" <= now()) AS "stillDue",
              (SELECT COUNT(*) FROM (SELECT "subscriptionId" FROM "Invoice" WHERE "accountId" = $1 GROUP BY 1 HAVING COUNT(*) > 1) doubled) AS doubled`,
      [accountId],
    )
    const row = result.rows[0]!
    return { invoices: Number(row.invoices), periods: Number(row.periods), stillDue: Number(row.stillDue), doubled: Number(row.doubled) }
  } finally {
    await client.end()
  }
}

describe('the billing runner', () => {
  test('two processes at once: one invoice per subscription per period', async () => {
    const databaseUrl = await createTestDatabase()
    const accountId = await seedDueSubscriptions(databaseUrl, 400)
    const [first, second] = [runBilling(databaseUrl), runBilling(databaseUrl)]
    expect(await first.done).toBe(0)
    expect(await second.done).toBe(0)
    // Each renewal was done by exactly one of them: what they report adds up to the whole.
    expect(first.renewed() + second.renewed()).toBe(400)
    expect(await invoiceCounts(databaseUrl, accountId)).toEqual({ invoices: 400, periods: 400, stillDue: 0, doubled: 0 })
  }, 120_000)

  test('a process killed mid-run: the next run finishes the work, nothing doubled', async () => {
    const databaseUrl = await createTestDatabase()
    const accountId = await seedDueSubscriptions(databaseUrl, 1500)
    const doomed = runBilling(databaseUrl)
    let progress = await invoiceCounts(databaseUrl, accountId)
    while (progress.invoices === 0 && doomed.child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      progress = await invoiceCounts(databaseUrl, accountId)
    }
    doomed.child.kill('SIGKILL')
    await doomed.done
    const partial = await invoiceCounts(databaseUrl, accountId)
    expect(partial.invoices).toBeGreaterThan(0)
    expect(partial.invoices).toBeLessThan(1500)
    const again = runBilling(databaseUrl)
    expect(await again.done).toBe(0)
    expect(await invoiceCounts(databaseUrl, accountId)).toEqual({ invoices: 1500, periods: 1500, stillDue: 0, doubled: 0 })
  }, 180_000)
})
