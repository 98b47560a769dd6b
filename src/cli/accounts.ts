import { parseArgs } from 'node:util'
import { setEnabledRails } from '../accounts/setEnabledRails'
import { applyMigrations } from '../database/applyMigrations'
import { createDatabaseClient } from '../database/createDatabaseClient'
import { openConfiguredDatabase } from '../database/openConfiguredDatabase'
import { DomainError } from '../domain/DomainError'
import { readConfiguration } from '../readConfiguration'

// `npm run accounts -- list` and `npm run accounts -- rails --account NAME --enable pix_manual,usdc_invoice`:
// which payment rails an account's new subscriptions may use. DATABASE_URL, else the embedded database.

const usage = 'usage:\n  npm run accounts -- list\n  npm run accounts -- rails --account NAME --enable RAIL[,RAIL…]   (pix_manual, pix_auto, usdc_invoice, usdc_pull)\n'
const { positionals, values } = parseArgs({ allowPositionals: true, options: { account: { type: 'string' }, enable: { type: 'string' } } })
const command = positionals[0]
if (command !== 'list' && command !== 'rails') {
  process.stderr.write(usage)
  process.exit(2)
}
const configuration = readConfiguration()
const { url: databaseUrl, embedded } = await openConfiguredDatabase(configuration)
await applyMigrations(databaseUrl)
const database = createDatabaseClient(databaseUrl, { maxConnections: 2 })
let exitCode = 0
try {
  if (command === 'list') {
    for (const account of await database.prisma.account.findMany({ orderBy: { name: 'asc' } })) {
      process.stdout.write(`${account.id}  ${account.name} (${account.mode})  rails: ${account.enabledRails.join(',') || 'none'}\n`)
    }
  } else {
    const account = values.account ? await database.prisma.account.findUnique({ where: { name: values.account } }) : null
    if (!account || values.enable === undefined) {
      process.stderr.write(`${account ? '' : 'unknown or missing --account\n'}${usage}`)
      exitCode = 2
    } else {
      const rails = values.enable.split(',').map((rail) => rail.trim()).filter(Boolean)
      const updated = await setEnabledRails({ db: database.prisma }, account.id, rails)
      process.stdout.write(`${updated.name}: rails ${updated.enabledRails.join(',') || 'none'}\n`)
    }
  }
} catch (error) {
  if (!(error instanceof DomainError)) throw error
  process.stderr.write(`${error.message}\n${usage}`)
  exitCode = 2
} finally {
  await database.close()
  await embedded?.stop()
}
process.exit(exitCode)
