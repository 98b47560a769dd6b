import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { setEnabledRails } from '../accounts/setEnabledRails'
import { applyMigrations } from '../database/applyMigrations'
import { createDatabaseClient } from '../database/createDatabaseClient'
import { openConfiguredDatabase } from '../start/openConfiguredDatabase'
import { DomainError } from '../domain/DomainError'
import { contextForAccount } from '../domain/DomainContext'
import { configurePixProvider } from '../payments/pix/configurePixProvider'
import { pixWebhookUrl } from '../payments/pix/pixWebhookUrl'
import { configureUsdcProvider } from '../payments/usdc/configureUsdcProvider'
import { readConfiguration } from '../readConfiguration'

// `npm run accounts -- list` and `npm run accounts -- rails --account NAME --enable pix_manual,usdc_invoice`:
// which payment rails an account's new subscriptions may use; `npm run accounts -- usdc --account NAME …`:
// its USDC provider (CONTRACT §9.2). DATABASE_URL, else the embedded database.

const usage =
  'usage:\n  npm run accounts -- list\n  npm run accounts -- rails --account NAME --enable RAIL[,RAIL…]   (pix_manual, pix_auto, usdc_invoice, usdc_pull)\n' +
  '  npm run accounts -- usdc --account NAME --rpc-url URL --chain-id N --token ADDRESS --xpub XPUB [--confirmations 12]\n' +
  '      [--signer-key-file FILE --treasury ADDRESS] [--poll-seconds 5] [--json]\n' +
  '  npm run accounts -- pix --account NAME --api-url URL --client-id ID --client-secret SECRET --pix-key KEY\n' +
  '      [--tls-cert FILE --tls-key FILE --tls-ca FILE] [--reconcile-seconds 60]\n' +
  '      [--receiver-branch AGENCIA --receiver-account CONTA --receiver-account-type CORRENTE|POUPANCA|PAGAMENTO] [--json]\n'
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
    'api-url': { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'pix-key': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'tls-ca': { type: 'string' },
    'reconcile-seconds': { type: 'string' },
    'receiver-branch': { type: 'string' },
    'receiver-account': { type: 'string' },
    'receiver-account-type': { type: 'string' },
  },
})
const command = positionals[0]
if (command !== 'list' && command !== 'rails' && command !== 'usdc' && command !== 'pix') {
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
  } else if (command === 'pix') {
    const account = values.account ? await database.prisma.account.findUnique({ where: { name: values.account } }) : null
    const missing = (['api-url', 'client-id', 'client-secret', 'pix-key'] as const).filter((flag) => values[flag] === undefined)
    if (!account || missing.length > 0) {
      process.stderr.write(`${account ? `missing --${missing.join(', --')}\n` : 'unknown or missing --account\n'}${usage}`)
      exitCode = 2
    } else {
      const readOptional = (file: string | undefined) => (file === undefined ? null : readFileSync(file, 'utf8'))
      const provider = await configurePixProvider(
        contextForAccount(database.prisma, account),
        {
          apiUrl: values['api-url']!,
          clientId: values['client-id']!,
          clientSecret: values['client-secret']!,
          pixKey: values['pix-key']!,
          tlsCertificate: readOptional(values['tls-cert']),
          tlsKey: readOptional(values['tls-key']),
          tlsCa: readOptional(values['tls-ca']),
          reconcileSeconds: values['reconcile-seconds'] === undefined ? null : Number(values['reconcile-seconds']),
          receiverBranch: values['receiver-branch'] ?? null,
          receiverAccount: values['receiver-account'] ?? null,
          receiverAccountType: values['receiver-account-type'] ?? null,
        },
        configuration.publicUrl,
      )
      const shown = {
        apiUrl: provider.apiUrl,
        clientId: provider.clientId,
        pixKey: provider.pixKey,
        webhookUrl: pixWebhookUrl(configuration.publicUrl, provider.webhookToken),
        mutualTls: provider.tlsCertificate !== null,
        reconcileSeconds: provider.reconcileSeconds,
        configuredAt: provider.configuredAt.toISOString(),
      }
      process.stdout.write(values.json ? `${JSON.stringify(shown)}\n` : `${account.name}: PIX through ${shown.apiUrl}, key ${shown.pixKey}, callbacks at ${shown.webhookUrl}\n`)
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
