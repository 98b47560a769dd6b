import { runBillingCycle } from '../billing/runBillingCycle'
import { createApplication } from '../createApplication'
import { readConfiguration } from '../readConfiguration'

// `npm run billing -- run`: one billing cycle now, against DATABASE_URL (the server runs one every
// BILLING_INTERVAL_SECONDS by itself; this is for cron-style deployments and for tests).
const [command] = process.argv.slice(2)
if (command !== 'run') {
  process.stderr.write('usage: npm run billing -- run\n')
  process.exit(2)
}
const { databaseUrl, publicUrl, paymentRails } = readConfiguration()
if (!databaseUrl) {
  process.stderr.write('set DATABASE_URL (the embedded database belongs to the running server)\n')
  process.exit(2)
}
// The application (without listening): billing records events, whose `data` the API renders.
const application = await createApplication({ databaseUrl, publicUrl, paymentRails, maxConnections: 2 })
const started = Date.now()
const result = await runBillingCycle(application.services.database.prisma)
process.stdout.write(`${JSON.stringify({ ...result, milliseconds: Date.now() - started })}\n`)
await application.close()
