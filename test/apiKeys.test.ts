import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hashKeySecret } from '../src/accounts/apiKeySecrets'
import { createApiKey } from '../src/accounts/createApiKey'
import { ensureBootstrapKey } from '../src/accounts/ensureBootstrapKey'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

const run = promisify(execFile)

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

async function keysCli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', ...args], {
    env: { ...process.env, DATABASE_URL: app.databaseUrl },
  })
  return stdout
}

describe('the keys CLI', () => {
  test('create --json, list, revoke: revocation is honoured at once', async () => {
    const created = JSON.parse(await keysCli('create', '--account', 'cli-account', '--mode', 'live', '--scopes', 'read,usage:write', '--json'))
    expect(created).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^bk_live_[0-9A-Za-z]{32}$/), accountId: expect.stringMatching(/^acct_/), scopes: ['read', 'usage:write'] })
    expect((await app.request('GET', '/v1/customers', { key: created.key })).status).toBe(200)

    const listing = await keysCli('list', '--account', 'cli-account')
    expect(listing).toContain(created.id)
    expect(listing).toContain('read,usage:write')
    expect(listing).not.toContain(created.key)

    await keysCli('revoke', created.id)
    const refused = await app.request('GET', '/v1/customers', { key: created.key })
    expect(refused.status).toBe(401)
    expect(refused.body.error.code).toBe('unauthorized')
    expect(await keysCli('list', '--account', 'cli-account')).toContain('revoked')
  }, 60_000)

  test('the accounts CLI sets an account\'s payment rails', async () => {
    await keysCli('create', '--account', 'rails-account', '--json')
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/accounts.ts', 'rails', '--account', 'rails-account', '--enable', 'pix_manual,usdc_pull'], {
      env: { ...process.env, DATABASE_URL: app.databaseUrl },
    })
    expect(stdout).toContain('rails-account: rails pix_manual,usdc_pull')
    const account = await app.application.services.database.prisma.account.findUniqueOrThrow({ where: { name: 'rails-account' } })
    expect(account.enabledRails).toEqual(['pix_manual', 'usdc_pull'])
    await expect(
      run(process.execPath, ['--import', 'tsx', 'src/cli/accounts.ts', 'rails', '--account', 'rails-account', '--enable', 'wire'], { env: { ...process.env, DATABASE_URL: app.databaseUrl } }),
    ).rejects.toThrow(/Unknown payment rail wire/)
  }, 60_000)

  test('a bad scope is refused with usage help', async () => {
    await expect(keysCli('create', '--account', 'x', '--scopes', 'admin')).rejects.toThrow(/unknown scope admin/)
  }, 30_000)
})

describe('keys', () => {
  test('only a hash of the secret is stored', async () => {
    const prisma = app.application.services.database.prisma
    const created = await createApiKey(prisma, { now: () => new Date() }, { accountName: 'hash-check' })
    const stored = await prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } })
    expect(stored.secretHash).toBe(hashKeySecret(created.key))
    expect(JSON.stringify(stored)).not.toContain(created.key)
  })

  test('an expired key is refused the moment it expires', async () => {
    const prisma = app.application.services.database.prisma
    const issuedAt = Date.now() - 2 * 86_400_000
    const created = await createApiKey(prisma, { now: () => new Date(issuedAt) }, { accountName: 'expiring', expiresInDays: 1 })
    const response = await app.request('GET', '/v1/customers', { key: created.key })
    expect(response.status).toBe(401)
    const fresh = await createApiKey(prisma, { now: () => new Date() }, { accountName: 'expiring', expiresInDays: 1 })
    expect((await app.request('GET', '/v1/customers', { key: fresh.key })).status).toBe(200)
  })

  test('BILLING_BOOTSTRAP_KEY: the key exists with all four scopes on the test account "default"', async () => {
    const prisma = app.application.services.database.prisma
    const secret = 'bk_test_bootstrapbootstrapbootstrap01'
    await ensureBootstrapKey({ db: prisma, clock: { now: () => new Date() } }, secret)
    await ensureBootstrapKey({ db: prisma, clock: { now: () => new Date() } }, secret)
    const stored = await prisma.apiKey.findMany({ where: { secretHash: hashKeySecret(secret) }, include: { account: true } })
    expect(stored).toHaveLength(1)
    expect(stored[0]!.account).toMatchObject({ name: 'default', mode: 'test' })
    expect(stored[0]!.scopes.sort()).toEqual(['checkout:write', 'read', 'usage:write', 'write'])
    expect((await app.request('GET', '/v1/customers', { key: secret })).status).toBe(200)
    await expect(ensureBootstrapKey({ db: prisma, clock: { now: () => new Date() } }, 'bk_live_bootstrapbootstrapbootstrap01')).rejects.toThrow(/test key/)
  })
})
