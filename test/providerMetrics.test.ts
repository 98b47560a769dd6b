import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PixClient } from '../src/payments/pix/PixClient'
import { createChainClient } from '../src/payments/usdc/createChainClient'
import { startAnvil, type Anvil } from './support/startAnvil'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { metricValue, scrapeMetrics } from './support/scrapeMetrics'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// The payment providers' calls in GET /metrics: every API Pix exchange by operation template and
// outcome, every chain JSON-RPC request by method and outcome, with durations; no txid, key,
// credential or node URL in any label.

const token = `metrics-${randomUUID()}`
let app: TestApplication
let simulator: PixSimulatorProcess
let anvil: Anvil
beforeAll(async () => {
  ;[app, simulator, anvil] = await Promise.all([startTestApplication({ metricsToken: token }), startPixSimulator(), startAnvil()])
}, 60_000)
afterAll(async () => {
  await Promise.all([app?.close(), simulator?.stop(), anvil?.stop()])
})

const scrape = () => scrapeMetrics(app.baseUrl, token)

describe('payment provider metrics', () => {
  test('API Pix calls by operation and outcome', async () => {
    const before = (await scrape()).families
    const client = new PixClient({ cacheKey: randomUUID(), apiUrl: simulator.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret' })
    const wrongSecret = new PixClient({ cacheKey: randomUUID(), apiUrl: simulator.apiUrl, clientId: 'sim-client', clientSecret: 'not-the-secret' })
    const unreachable = new PixClient({ cacheKey: randomUUID(), apiUrl: 'http://127.0.0.1:1', clientId: 'sim-client', clientSecret: 'sim-secret' })
    const txid = `metrics${randomUUID().replaceAll('-', '')}`.slice(0, 30)
    try {
      await client.checkCredentials()
      await expect(client.call('GET', `/cob/${txid}`)).rejects.toMatchObject({ code: 'provider_error' })
      await simulator.control('POST', '/outage', { mode: 'down' })
      await expect(client.call('GET', `/pix?inicio=2026-11-01T00:00:00Z&fim=2026-11-02T00:00:00Z`)).rejects.toMatchObject({ code: 'unavailable' })
      await simulator.control('POST', '/outage', { mode: 'none' })
      await expect(wrongSecret.checkCredentials()).rejects.toMatchObject({ code: 'provider_error' })
      await expect(unreachable.checkCredentials()).rejects.toMatchObject({ code: 'unavailable' })
    } finally {
      for (const each of [client, wrongSecret, unreachable]) each.close()
    }

    const { text, families: after } = await scrape()
    const moved = (labels: Record<string, string>) =>
      metricValue(after, 'pix_client_request_duration_seconds_count', labels) - metricValue(before, 'pix_client_request_duration_seconds_count', labels)
    expect(moved({ operation: 'POST /oauth/token', outcome: 'success' })).toBe(1)
    expect(moved({ operation: 'POST /oauth/token', outcome: 'client_error' })).toBe(1)
    expect(moved({ operation: 'POST /oauth/token', outcome: 'unreachable' })).toBe(1)
    expect(moved({ operation: 'GET /cob/{txid}', outcome: 'client_error' })).toBe(1)
    expect(moved({ operation: 'GET /pix', outcome: 'server_error' })).toBe(1)
    expect(metricValue(after, 'pix_client_request_duration_seconds_sum', { operation: 'GET /cob/{txid}' })).toBeGreaterThan(0)
    for (const secret of [txid, 'sim-secret', 'not-the-secret', simulator.apiUrl, 'inicio=']) expect(text).not.toContain(secret)
  })

  test('chain JSON-RPC requests by method and outcome', async () => {
    const before = (await scrape()).families
    const chain = createChainClient(anvil.rpcUrl)
    expect(await chain.getBlockNumber()).toBeGreaterThanOrEqual(0n)
    expect(await chain.getChainId()).toBe(31337)
    await expect(chain.request({ method: 'eth_getBalance', params: ['not an address' as `0x${string}`, 'latest'] })).rejects.toThrow()
    await expect(createChainClient('http://127.0.0.1:1', 2_000).getBlockNumber()).rejects.toThrow()

    const { text, families: after } = await scrape()
    const moved = (labels: Record<string, string>) =>
      metricValue(after, 'chain_rpc_request_duration_seconds_count', labels) - metricValue(before, 'chain_rpc_request_duration_seconds_count', labels)
    expect(moved({ method: 'eth_blockNumber', outcome: 'success' })).toBe(1)
    expect(moved({ method: 'eth_chainId', outcome: 'success' })).toBe(1)
    expect(moved({ method: 'eth_getBalance', outcome: 'rpc_error' })).toBe(1)
    expect(moved({ method: 'eth_blockNumber', outcome: 'unreachable' })).toBe(1)
    for (const secret of [anvil.rpcUrl, 'not an address']) expect(text).not.toContain(secret)
  })
})
