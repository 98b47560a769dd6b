import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { setEnabledRails } from '../accounts/setEnabledRails'
import { applyMigrations } from '../database/applyMigrations'
import { createDatabaseClient } from '../database/createDatabaseClient'
import { openConfiguredDatabase } from '../database/openConfiguredDatabase'
import { DomainError } from '../domain/DomainError'
import { contextForAccount } from '../domain/DomainContext'
import { configureUsdcProvider } from '../payments/usdc/configureUsdcProvider'
import { readConfiguration } from '../readConfiguration'

// `npm run accounts -- list` and `npm run accounts -- rails --account NAME --enable pix_manual,usdc_invoice`:
// which payment rails an account's new subscriptions may use; `npm run accounts -- usdc --account NAME …`:
// its USDC provider (CONTRACT §9.2). DATABASE_URL, else the embedded database.

const usage =
  'usage:\n  npm run accounts -- list\n  npm run accounts -- rails --account NAME --enable RAIL[,RAIL…]   (pix_manual, pix_auto, usdc_invoice, usdc_pull)\n' +
  '  npm run accounts -- usdc --account NAME --rpc-url URL --chain-id N --token ADDRESS --xpub XPUB [--confirmations 12]\n' +
  '      [--signer-key-file FILE --treasury ADDRESS] [--poll-seconds 5] [--json]\n'
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    account: { type: 'string' },
    enable: { type: 'string' },
    'rpc-url': { type: 'string' },
    'chain-id': { type: 'string' },
    token: { type: 'string' },
    xpub: { type: 'string' },
    confirmations: { type: 'string' },
    'signer-key-file': { type: 'string' },
    treasury: { type: 'string' },
    'poll-seconds': { type: 'string' },
    json: { type: 'boolean' },
  },
})
const command = positionals[0]
if (command !== 'list' && command !== 'rails' && command !== 'usdc') {
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
  } else if (command === 'usdc') {
    const account = values.account ? await database.prisma.account.findUnique({ where: { name: values.account } }) : null
    const missing = (['rpc-url', 'chain-id', 'token', 'xpub'] as const).filter((flag) => values[flag] === undefined)
    if (!account || missing.length > 0) {
      process.stderr.write(`${account ? `missing --${missing.join(', --')}\n` : 'unknown or missing --account\n'}${usage}`)
      exitCode = 2
    } else {
      const optionalNumber = (text: string | undefined) => (text === undefined ? null : Number(text))
      const provider = await configureUsdcProvider(contextForAccount(database.prisma, account), {
        rpcUrl: values['rpc-url']!,
        chainId: Number(values['chain-id']),
        token: values.token!,
        xpub: values.xpub!,
        confirmations: optionalNumber(values.confirmations),
        pollSeconds: optionalNumber(values['poll-seconds']),
        signerKey: values['signer-key-file'] === undefined ? null : readFileSync(values['signer-key-file'], 'utf8'),
        treasury: values.treasury ?? null,
      })
      const shown = {
        rpcUrl: provider.rpcUrl,
        chainId: provider.chainId,
        token: provider.token,
        xpub: provider.xpub,
        confirmations: provider.confirmations,
        signerAddress: provider.signerAddress,
        treasury: provider.treasury,
        pollSeconds: provider.pollSeconds,
        configuredAt: provider.configuredAt.toISOString(),
      }
      process.stdout.write(values.json ? `${JSON.stringify(shown)}\n` : `${account.name}: USDC on chain ${shown.chainId}, token ${shown.token}, ${shown.confirmations} confirmations\n`)
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
