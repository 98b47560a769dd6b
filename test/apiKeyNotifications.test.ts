import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { apiKeysChangedChannel } from '../src/accounts/ApiKeyCache'
import { createApiKey } from '../src/accounts/createApiKey'
import { ensureBootstrapKey } from '../src/accounts/ensureBootstrapKey'
import { advanceClock } from '../src/billing/advanceClock'
import { revokeApiKey } from '../src/accounts/revokeApiKey'
import { setEnabledRails } from '../src/accounts/setEnabledRails'
import type { DatabaseClient } from '../src/database/createDatabaseClient'
import { runInTransaction, systemClock, type Database } from '../src/domain/DomainContext'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// A change to a key or its account and the NOTIFY that empties every process's key cache are one
// transaction: the notification arrives when, and only if, the change commits.

let app: TestApplication
let prisma: DatabaseClient
let listener: pg.Client
const received: string[] = []
let sentinelArrived: (() => void) | undefined

beforeAll(async () => {
  app = await startTestApplication()
  prisma = app.application.services.database.prisma
  listener = new pg.Client({ connectionString: app.databaseUrl })
  await listener.connect()
  listener.on('notification', (message) => {
    if (message.payload === 'sentinel') sentinelArrived?.()
    else received.push(message.payload ?? '')
  })
  await listener.query(`LISTEN ${apiKeysChangedChannel}`)
})
afterAll(async () => {
  await listener.end()
  await app.close()
})

/**
 * The notifications delivered so far. A sentinel sent (and committed) from another session comes
 * after every notification committed before it, so once it arrives nothing earlier is still on its way.
 */
async function notificationsSoFar(): Promise<number> {
  const arrived = new Promise<void>((resolve) => (sentinelArrived = resolve))
  await prisma.$executeRawUnsafe(`NOTIFY ${apiKeysChangedChannel}, 'sentinel'`)
  await arrived
  return received.splice(0).length
}

/** The root client whose NOTIFY statements fail: a failure between the change and its notification. */
function clientWhoseNotifyFails(): Database {
  return prisma.$extends({
    query: {
      async $executeRawUnsafe({ args, query }) {
        if (String(args[0]).startsWith('NOTIFY')) throw new Error('injected failure of NOTIFY')
        return query(args)
      },
    },
  }) as unknown as Database
}

async function railsOf(accountId: string) {
  return (await prisma.account.findUniqueOrThrow({ where: { id: accountId } })).enabledRails
}

describe('key and account changes notify in their own transaction', () => {
  test('revokeApiKey: a failing NOTIFY leaves the key unrevoked; a revocation notifies once', async () => {
    const key = await createApiKey(prisma, systemClock, { accountName: 'notify-revoke' })
    await notificationsSoFar()
    await expect(revokeApiKey({ db: clientWhoseNotifyFails(), clock: systemClock }, key.id)).rejects.toThrow(/injected/)
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeNull()
    expect(await notificationsSoFar()).toBe(0)

    await revokeApiKey({ db: prisma, clock: systemClock }, key.id)
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).not.toBeNull()
    expect(await notificationsSoFar()).toBe(1)
    expect((await app.request('GET', '/v1/customers', { key: key.key })).status).toBe(401)
  })

  test('revokeApiKey of an unknown key changes nothing and notifies nobody', async () => {
    await notificationsSoFar()
    await expect(revokeApiKey({ db: prisma, clock: systemClock }, 'key_unknown')).rejects.toThrow(/No API key/)
    expect(await notificationsSoFar()).toBe(0)
  })

  test('setEnabledRails: a failing NOTIFY leaves the rails unchanged; a change notifies once', async () => {
    const key = await createApiKey(prisma, systemClock, { accountName: 'notify-rails' })
    const before = await railsOf(key.accountId)
    await notificationsSoFar()
    await expect(setEnabledRails({ db: clientWhoseNotifyFails() }, key.accountId, ['usdc_pull'])).rejects.toThrow(/injected/)
    expect(await railsOf(key.accountId)).toEqual(before)
    expect(await notificationsSoFar()).toBe(0)

    const changed = await app.graphql('mutation { setEnabledRails(rails: [usdc_pull]) { enabledRails } }', {}, key.key)
    expect(changed.body.data.setEnabledRails.enabledRails).toEqual(['usdc_pull'])
    expect(await notificationsSoFar()).toBe(1)
  })

  test('ensureBootstrapKey: a failing NOTIFY leaves the key as it was; restoring its scopes notifies once', async () => {
    const secret = 'bk_test_notifybootstrapnotifybootstrap01'
    const key = await createApiKey(prisma, systemClock, { accountName: 'default', secret, scopes: ['read'] })
    await notificationsSoFar()
    await expect(ensureBootstrapKey({ db: clientWhoseNotifyFails(), clock: systemClock }, secret)).rejects.toThrow(/injected/)
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).scopes).toEqual(['read'])
    expect(await notificationsSoFar()).toBe(0)

    await ensureBootstrapKey({ db: prisma, clock: systemClock }, secret)
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).scopes.sort()).toEqual(['checkout:write', 'read', 'usage:write', 'write'])
    expect(await notificationsSoFar()).toBe(1)
  })

  test('advanceClock: a failing NOTIFY leaves the clock where it was; an advance notifies once', async () => {
    const key = await createApiKey(prisma, systemClock, { accountName: 'notify-clock', mode: 'test' })
    const offset = async () => (await prisma.account.findUniqueOrThrow({ where: { id: key.accountId } })).clockOffsetMs
    const account = { id: key.accountId, mode: 'test' as const, clockOffsetMs: 0 }
    await notificationsSoFar()
    await expect(advanceClock({ db: clientWhoseNotifyFails(), clock: systemClock, account }, 3600)).rejects.toThrow(/injected/)
    expect(await offset()).toBe(0n)
    expect(await notificationsSoFar()).toBe(0)

    const moved = await app.graphql('mutation { advanceClockForTesting(input: { seconds: 3600 }) { now } }', {}, key.key)
    expect(moved.body.errors).toBeUndefined()
    expect(await offset()).toBe(3_600_000n)
    expect(await notificationsSoFar()).toBe(1)
  })

  test('inside a larger transaction the NOTIFY is delivered on its commit, and never after a rollback', async () => {
    const key = await createApiKey(prisma, systemClock, { accountName: 'notify-outer' })
    await notificationsSoFar()
    await expect(
      runInTransaction(prisma, async (transaction) => {
        await setEnabledRails({ db: transaction }, key.accountId, ['pix_auto'])
        await revokeApiKey({ db: transaction, clock: systemClock }, key.id)
        expect(await notificationsSoFar()).toBe(0)
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await notificationsSoFar()).toBe(0)
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeNull()

    await runInTransaction(prisma, async (transaction) => {
      await setEnabledRails({ db: transaction }, key.accountId, ['pix_auto'])
      expect(await notificationsSoFar()).toBe(0)
    })
    // PostgreSQL folds identical notifications of one transaction into one.
    expect(await notificationsSoFar()).toBe(1)
    expect(await railsOf(key.accountId)).toEqual(['pix_auto'])
  })
})
