import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { HDKey } from '@scure/bip32'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptSecret } from '../src/secrets/decryptSecret'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { fundedAccount, merchantWallet, merchantXpub, startTestChain, type TestChain } from './support/testChain'

// CONTRACT §9.2: the provider is checked against the chain before it is stored, its signer key is
// stored only encrypted and never shown, and a live account takes USDC only once it has one.

const run = promisify(execFile)
let app: TestApplication
let chain: TestChain
let token: string
const signerKey = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

const configure = `mutation($input: ConfigureUsdcProviderInput!) { configureUsdcProvider(input: $input) {
  rpcUrl chainId token xpub confirmations signerAddress treasury configuredAt } }`

beforeAll(async () => {
  ;[app, chain] = await Promise.all([startTestApplication(), startTestChain()])
  token = await chain.deployToken()
})
afterAll(async () => {
  await app.close()
  await chain.stop()
})

describe('configuring the USDC provider', () => {
  it('refuses a wrong chain id, a token without 6 decimals, a bad xpub, a bad key, an unreachable node', async () => {
    const base = { rpcUrl: chain.rpcUrl, chainId: chain.chainId, token, xpub: merchantXpub() }
    const cases: [Record<string, unknown>, string][] = [
      [{ chainId: 1 }, 'chainId'],
      [{ token: fundedAccount(3).address }, 'token'],
      [{ token: await chain.deployToken(18) }, 'token'],
      [{ token: 'not-an-address' }, 'token'],
      [{ xpub: 'xpub-nonsense' }, 'xpub'],
      [{ xpub: merchantWallet().privateExtendedKey }, 'xpub'],
      [{ signerKey: '0x1234' }, 'signerKey'],
      [{ rpcUrl: 'http://127.0.0.1:1' }, 'rpcUrl'],
      [{ rpcUrl: 'ftp://example.com' }, 'rpcUrl'],
      [{ confirmations: 0 }, 'confirmations'],
    ]
    for (const [change, param] of cases) {
      const response = await app.graphql(configure, { input: { ...base, ...change } })
      expect(response.body.errors?.[0]?.extensions, JSON.stringify(change)).toMatchObject({ code: 'validation_error', param })
    }
    const account = await app.graphql('{ account { usdcProvider { chainId } } }')
    expect(account.body.data.account.usdcProvider).toBeNull()
  })

  it('stores what was checked, the signer key encrypted and never shown, addresses checksummed', async () => {
    const response = await app.graphql(configure, {
      input: { rpcUrl: chain.rpcUrl, chainId: chain.chainId, token: token.toLowerCase(), xpub: merchantXpub(), confirmations: 3, signerKey: signerKey.slice(2) },
    })
    expect(response.body.errors).toBeUndefined()
    const settings = response.body.data.configureUsdcProvider
    expect(settings).toMatchObject({ chainId: 31337, token, confirmations: 3, signerAddress: fundedAccount(1).address, treasury: fundedAccount(1).address })
    expect(JSON.stringify(settings)).not.toContain(signerKey.slice(2))
    const read = await app.graphql('{ account { usdcProvider { chainId token signerAddress } } }')
    expect(read.body.data.account.usdcProvider).toEqual({ chainId: 31337, token, signerAddress: fundedAccount(1).address })
    const stored = await app.application.services.database.prisma.usdcProvider.findFirstOrThrow()
    expect(stored.encryptedSignerKey).not.toContain(signerKey.slice(2))
    expect(decryptSecret(stored.encryptedSignerKey!)).toBe(signerKey)
    expect(stored.startBlock).toBe(await chain.blockNumber())
  })

  it('a live account takes USDC only with a provider (422 rail_not_available before)', async () => {
    const liveKey = await app.createKey({ account: 'live-shop', mode: 'live' })
    const customer = await app.request('POST', '/v1/customers', { key: liveKey, body: { name: 'Ana' }, idempotencyKey: 'c1' })
    const session = (n: string) =>
      app.request('POST', '/v1/checkout/sessions', { key: liveKey, idempotencyKey: n, body: { mode: 'credits', customerId: customer.body.data.id, amount: '5', currency: 'USDC' } })
    const refused = await session('s1')
    expect(refused.status).toBe(422)
    expect(refused.body.error.code).toBe('rail_not_available')
    const configured = await app.graphql(configure, { input: { rpcUrl: chain.rpcUrl, chainId: chain.chainId, token, xpub: merchantXpub(1) } }, liveKey)
    expect(configured.body.errors).toBeUndefined()
    expect((await session('s2')).status).toBe(201)
  })

  it('refuses an xpub another account uses on the same chain (400, param xpub, naming no one), however it is encoded; its own account may configure it again', async () => {
    const owner = await app.createKey({ account: 'xpub-owner' })
    const other = await app.createKey({ account: 'xpub-other' })
    const input = { rpcUrl: chain.rpcUrl, chainId: chain.chainId, token, xpub: merchantXpub(3) }
    expect((await app.graphql(configure, { input }, owner)).body.errors).toBeUndefined()
    const wallet = HDKey.fromExtendedKey(merchantXpub(3))
    const reencoded = new HDKey({ publicKey: wallet.publicKey!, chainCode: wallet.chainCode!, depth: 0 }).publicExtendedKey
    expect(reencoded).not.toBe(merchantXpub(3))
    for (const xpub of [merchantXpub(3), reencoded]) {
      const refused = await app.graphql(configure, { input: { ...input, xpub } }, other)
      expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', param: 'xpub' })
      expect(refused.body.errors[0].message).toContain('already in use')
      const ownerAccount = await app.application.services.database.prisma.account.findUniqueOrThrow({ where: { name: 'xpub-owner' } })
      expect(JSON.stringify(refused.body)).not.toContain('xpub-owner')
      expect(JSON.stringify(refused.body)).not.toContain(ownerAccount.id)
      expect((await app.graphql('{ account { usdcProvider { chainId } } }', {}, other)).body.data.account.usdcProvider).toBeNull()
    }
    expect((await app.graphql(configure, { input: { ...input, confirmations: 4 } }, owner)).body.errors).toBeUndefined()
    // Two accounts asking for one new xpub at the same moment: exactly one gets it.
    const racers = await Promise.all(['xpub-racer-a', 'xpub-racer-b'].map((account) => app.createKey({ account })))
    const raced = await Promise.all(racers.map((key) => app.graphql(configure, { input: { ...input, xpub: merchantXpub(4) } }, key)))
    expect(raced.map((response) => response.body.errors?.[0]?.extensions?.param ?? 'configured').sort()).toEqual(['configured', 'xpub'])
  })

  it('the CLI configures it too, and refuses a signer key when DATABASE_URL is set without BILLING_SECRETS_KEY', async () => {
    await app.createKey({ account: 'cli-shop' })
    const keyFile = path.join(tmpdir(), `usdc-signer-${process.pid}`)
    await writeFile(keyFile, `${signerKey}\n`)
    // `npm run accounts --` is `tsx src/cli/accounts.ts`: run it through tsx directly (no npm start-up under load).
    const flags = ['--import', 'tsx', 'src/cli/accounts.ts', 'usdc', '--account', 'cli-shop', '--rpc-url', chain.rpcUrl, '--chain-id', '31337', '--token', token, '--xpub', merchantXpub(2)]
    const environment: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: app.databaseUrl }
    const { stdout } = await run(process.execPath, [...flags, '--confirmations', '2', '--signer-key-file', keyFile, '--json'], { env: environment })
    expect(JSON.parse(stdout)).toMatchObject({ chainId: 31337, token, confirmations: 2, signerAddress: fundedAccount(1).address })
    expect(stdout).not.toContain(signerKey.slice(2))
    const { BILLING_SECRETS_KEY: _unset, ...withoutKey } = environment
    const refused = await run(process.execPath, [...flags, '--signer-key-file', keyFile], { env: withoutKey }).catch((error: { code: number; stderr: string }) => error)
    expect('code' in refused && refused.code).toBe(2)
    expect((refused as { stderr: string }).stderr).toContain('BILLING_SECRETS_KEY is not set')
  }, 180_000)
})
