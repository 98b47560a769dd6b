import { parseArgs } from 'node:util'
import { createApiKey } from '../accounts/createApiKey'
import { listApiKeys } from '../accounts/listApiKeys'
import { revokeApiKey } from '../accounts/revokeApiKey'
import { isScope, type Scope } from '../accounts/scopes'
import { applyMigrations } from '../database/applyMigrations'
import { createDatabaseClient } from '../database/createDatabaseClient'
import { openConfiguredDatabase } from '../start/openConfiguredDatabase'
import { systemClock } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { readConfiguration } from '../readConfiguration'

// `npm run keys -- create --account NAME [--mode test|live] [--scopes a,b] [--expires-in DAYS] [--json]`
// `npm run keys -- list [--account NAME]`, `npm run keys -- revoke KEY_ID`
// Works on DATABASE_URL, else on the embedded database in DATA_DIR (stop the server first: one
// embedded server per data directory).

const usage = `usage:
  npm run keys -- create --account NAME [--mode test|live] [--scopes read,write,usage:write,checkout:write] [--expires-in DAYS] [--json]
  npm run keys -- list [--account NAME]
  npm run keys -- revoke KEY_ID`

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    account: { type: 'string' },
    mode: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
})

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`)
  process.exit(2)
}

const [command, ...rest] = positionals
if (!command || !['create', 'list', 'revoke'].includes(command)) fail('unknown or missing command')

const configuration = readConfiguration()
const { url: databaseUrl, embedded } = await openConfiguredDatabase(configuration)
await applyMigrations(databaseUrl)
const database = createDatabaseClient(databaseUrl, { maxConnections: 2 })

try {
  if (command === 'create') {
    if (!values.account) fail('--account is required')
    const mode = values.mode ?? 'test'
    if (mode !== 'test' && mode !== 'live') fail('--mode is test or live')
    const scopes = values.scopes?.split(',').map((scope) => scope.trim())
    const unknown = scopes?.find((scope) => !isScope(scope))
    if (unknown !== undefined) fail(`unknown scope ${unknown}`)
    const expiresIn = values['expires-in'] === undefined ? undefined : Number(values['expires-in'])
    const created = await createApiKey(database.prisma, systemClock, {
      accountName: values.account,
      mode,
      ...(scopes ? { scopes: scopes as Scope[] } : {}),
      ...(expiresIn === undefined ? {} : { expiresInDays: expiresIn }),
    })
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ id: created.id, key: created.key, accountId: created.accountId, scopes: created.scopes })}\n`)
    } else {
      process.stdout.write(`Created ${created.id} for account ${values.account} (scopes: ${created.scopes.join(', ')}${created.expiresAt ? `; expires ${created.expiresAt.toISOString()}` : ''}).\nThe key is shown once:\n\n  ${created.key}\n\n`)
    }
  } else if (command === 'list') {
    const keys = await listApiKeys(database.prisma, values.account)
    for (const key of keys) {
      const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : key.expiresAt ? `expires ${key.expiresAt.toISOString()}` : 'active'
      process.stdout.write(`${key.id}  ${key.prefix}…  ${key.account} (${key.mode})  ${key.scopes.join(',')}  ${state}\n`)
    }
  } else {
    const keyId = rest[0]
    if (!keyId) fail('revoke needs a KEY_ID')
    const revoked = await revokeApiKey({ db: database.prisma, clock: systemClock }, keyId)
    process.stdout.write(`Revoked ${revoked.id} at ${revoked.revokedAt.toISOString()}\n`)
  }
} catch (error) {
  if (error instanceof DomainError) fail(error.message)
  throw error
} finally {
  await database.close()
  await embedded?.stop()
}
