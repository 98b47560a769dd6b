import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { spawnServer } from './support/spawnServer'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 10's audit: the PSP's apiUrl on live accounts (https, never an internal address), the
// `npm run accounts -- pix` CLI, a live pix_manual subscription without a provider, and the client
// secret kept out of a real server's output. The simulator runs as a separate process with a client
// secret of its own, so finding it anywhere means it leaked.

const run = promisify(execFile)
const clientSecret = `sim-secret-${randomUUID()}`
let app: TestApplication
let psp: PixSimulatorProcess

beforeAll(async () => {
  ;[app, psp] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator({ PIX_SIMULATOR_CLIENT_SECRET: clientSecret })])
})
afterAll(async () => {
  await app.close()
  await psp.stop()
})

const configure = `mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { apiUrl webhookUrl } }`
const input = (apiUrl: string, pixKey = `safety-${randomUUID().slice(0, 8)}@example.com.br`) => ({ input: { apiUrl, clientId: 'sim-client', clientSecret, pixKey } })

describe('the PSP\'s apiUrl', () => {
  test('a live account\'s must be https on a public address: http, loopback, private, link-local and localhost are 400 validation_error on apiUrl', async () => {
    const liveKey = await app.createKey({ account: `pix-ssrf-${randomUUID().slice(0, 8)}`, mode: 'live' })
    const allowed = process.env.PIX_ALLOW_INTERNAL_API_URL
    delete process.env.PIX_ALLOW_INTERNAL_API_URL
    try {
      const cases: [string, RegExp][] = [
        [psp.apiUrl, /https/],
        ['http://psp.example.com/v2', /https/],
        [psp.apiUrl.replace('http:', 'https:'), /internal address/],
        ['https://localhost:8443/v2', /internal address/],
        ['https://[::1]/v2', /internal address/],
        ['https://[::ffff:127.0.0.1]/v2', /internal address/],
        ['https://10.1.2.3/v2', /internal address/],
        ['https://192.168.0.10/v2', /internal address/],
        ['https://169.254.169.254/latest', /internal address/],
        ['ftp://psp.example.com', /http\(s\)/],
      ]
      for (const [apiUrl, message] of cases) {
        const response = await app.graphql(configure, input(apiUrl), liveKey)
        expect(response.body.errors?.[0]?.extensions, apiUrl).toMatchObject({ code: 'validation_error', param: 'apiUrl' })
        expect(response.body.errors[0].message, apiUrl).toMatch(message)
      }
      expect((await app.graphql('{ account { pixProvider { apiUrl } } }', {}, liveKey)).body.data.account.pixProvider).toBeNull()
      expect((await psp.control('GET', '/state')).tokensIssued).toBe(0)

      // A test account may use the simulator on 127.0.0.1 over http.
      const testKey = await app.createKey({ account: `pix-ssrf-test-${randomUUID().slice(0, 8)}`, mode: 'test' })
      const accepted = await app.graphql(configure, input(psp.apiUrl), testKey)
      expect(accepted.body.errors).toBeUndefined()
      expect(accepted.body.data.configurePixProvider.apiUrl).toBe(psp.apiUrl)
    } finally {
      process.env.PIX_ALLOW_INTERNAL_API_URL = allowed
    }
  })
})

describe('a live account without a provider', () => {
  test('a pix_manual subscription is 422 rail_not_available, and nothing is created', async () => {
    const liveKey = await app.createKey({ account: `pix-none-${randomUUID().slice(0, 8)}`, mode: 'live' })
    const ok = async (path: string, body: unknown) => {
      const response = await app.request('POST', path, { key: liveKey, body, idempotencyKey: randomUUID() })
      expect(response.status, JSON.stringify(response.body)).toBe(201)
      return response.body.data
    }
    const customer = await ok('/v1/customers', { name: 'Sem PSP' })
    const plan = await ok('/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '10.00', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const refused = await app.request('POST', '/v1/subscriptions', { key: liveKey, body: { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' }, idempotencyKey: randomUUID() })
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ code: 'rail_not_available' })
    const listed = await app.request('GET', '/v1/subscriptions?limit=10', { key: liveKey })
    expect(listed.body.data.items).toEqual([])
    const invoices = await app.request('GET', '/v1/invoices?limit=10', { key: liveKey })
    expect(invoices.body.data.items).toEqual([])
  })
})

describe('npm run accounts -- pix', () => {
  test('configures a provider; --json holds no secret; refused when DATABASE_URL is set without BILLING_SECRETS_KEY', async () => {
    const account = `pix-cli-${randomUUID().slice(0, 8)}`
    await app.createKey({ account })
    // `npm run accounts --` is `tsx src/cli/accounts.ts`: run it through tsx directly (no npm start-up under load).
    const flags = ['--import', 'tsx', 'src/cli/accounts.ts', 'pix', '--account', account, '--api-url', psp.apiUrl, '--client-id', 'sim-client', '--client-secret', clientSecret, '--pix-key', `${account}@example.com.br`]
    const environment: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: app.databaseUrl, PUBLIC_URL: 'https://billing.example.com' }
    const { stdout } = await run(process.execPath, [...flags, '--json'], { env: environment })
    const shown = JSON.parse(stdout)
    expect(shown).toMatchObject({ apiUrl: psp.apiUrl, clientId: 'sim-client', pixKey: `${account}@example.com.br`, mutualTls: false })
    expect(shown.webhookUrl).toMatch(/^https:\/\/billing\.example\.com\/webhooks\/pix\//)
    expect(stdout).not.toContain(clientSecret)
    const read = await app.graphql('{ account { pixProvider { apiUrl } } }', {}, await app.createKey({ account }))
    expect(read.body.data.account.pixProvider).toEqual({ apiUrl: psp.apiUrl })

    const { BILLING_SECRETS_KEY: _unset, ...withoutKey } = environment
    const refused = await run(process.execPath, flags, { env: withoutKey }).catch((error: { code: number; stdout: string; stderr: string }) => error)
    expect('code' in refused && refused.code).toBe(2)
    expect((refused as { stderr: string }).stderr).toContain('BILLING_SECRETS_KEY is not set')
    expect(`${(refused as { stdout: string }).stdout}${(refused as { stderr: string }).stderr}`).not.toContain(clientSecret)
  }, 180_000)
})

describe('the client secret', () => {
  test('never appears in a real server\'s output: configuring (refused and accepted), charging, the PSP down, tokens renewed', async () => {
    const liveKey = await app.createKey({ account: `pix-logs-${randomUUID().slice(0, 8)}`, mode: 'live' })
    const server = await spawnServer({ DATABASE_URL: app.databaseUrl, PIX_INTERVAL_SECONDS: '1', LOG_LEVEL: 'info' })
    try {
      const graphql = (query: string, variables: unknown) =>
        fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${liveKey}` }, body: JSON.stringify({ query, variables }) }).then(
          (response) => response.json() as Promise<{ data?: unknown; errors?: { extensions?: { code?: string } }[] }>,
        )
      const rest = (method: string, path: string, body?: unknown) =>
        fetch(`${server.baseUrl}${path}`, {
          method,
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${liveKey}`, 'Idempotency-Key': randomUUID() },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }).then((response) => response.json() as Promise<{ data: { id: string } }>)
      const wrong = await graphql(configure, { input: { ...input(psp.apiUrl).input, clientSecret: `${clientSecret}-wrong` } })
      expect(wrong.errors?.[0]?.extensions?.code).toBe('provider_error')
      const right = await graphql(configure, input(psp.apiUrl))
      expect(right.errors).toBeUndefined()
      const customer = await rest('POST', '/v1/customers', { name: 'Logs' })
      const plan = await rest('POST', '/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '10.00', currency: 'BRL', model: 'subscription', interval: 'month' } })
      await rest('POST', '/v1/subscriptions', { customerId: customer.data.id, productId: plan.data.id, paymentMethod: 'pix_manual' })
      // The worker makes the invoice's cob, then fails while the PSP is down, then renews revoked tokens.
      const cobs = async () => (await psp.control('GET', '/state')).cobs.length as number
      const before = await cobs()
      for (let attempt = 0; attempt < 200 && (await cobs()) === before; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await cobs()).toBeGreaterThan(before)
      await psp.control('POST', '/outage', { mode: 'down' })
      await rest('POST', '/v1/subscriptions', { customerId: customer.data.id, productId: plan.data.id, paymentMethod: 'pix_manual' })
      for (let attempt = 0; attempt < 200 && !/unavailable/.test(server.output()); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100))
      await psp.control('POST', '/outage', { mode: 'none' })
      await psp.control('POST', '/tokens/expire')
      const tokens = (await psp.control('GET', '/state')).tokensIssued as number
      for (let attempt = 0; attempt < 200 && (await psp.control('GET', '/state')).tokensIssued === tokens; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      await server.stop('SIGTERM')
    }
    const output = server.output()
    expect(output).toMatch(/unavailable/)
    expect(output).not.toContain(clientSecret)
    expect(output).not.toContain(Buffer.from(`sim-client:${clientSecret}`).toString('base64'))
    expect(output).not.toContain(Buffer.from(clientSecret).toString('base64'))
  }, 180_000)
})
