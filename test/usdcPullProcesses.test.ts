import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAbiItem, type Address } from 'viem'
import { createChainClient } from '../src/payments/usdc/createChainClient'
import { runUsdcSendWork } from '../src/payments/usdc/runUsdcSendWork'
import { scanUsdcTransfers } from '../src/payments/usdc/scanUsdcTransfers'
import { spawnServer, type ServerProcess } from './support/spawnServer'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { fundedAccount, startTestChain, type TestChain } from './support/testChain'
import { setUpUsdcMerchant, type UsdcMerchant } from './support/usdcMerchant'

// Two real server processes on one database, each with its chain watcher: a renewal's pull is
// requested, signed, broadcast and settled once, whichever process gets to each step first; a transfer
// to a deposit address is recorded and settled once.

let app: TestApplication
let chain: TestChain
let token: Address
let merchant: UsdcMerchant
const servers: ServerProcess[] = []
const signer = fundedAccount(1).address
const payer = fundedAccount(7).address
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/** The two server processes, started by the first test that needs them. */
async function runningServers(): Promise<ServerProcess[]> {
  if (servers.length > 0) return servers
  const environment = { DATABASE_URL: app.databaseUrl, BILLING_INTERVAL_SECONDS: '1', PIX_INTERVAL_SECONDS: '0', LOG_LEVEL: 'info' }
  servers.push(...(await Promise.all([0, 1].map(() => spawnServer(environment)))))
  return servers
}

beforeAll(async () => {
  ;[app, chain] = await Promise.all([startTestApplication(), startTestChain()])
  token = await chain.deployToken()
  await chain.mint(token, payer, 100_000_000n)
  merchant = await setUpUsdcMerchant(app, chain, token, { confirmations: 2, signer: true })
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')))
  await app.close()
  await chain.stop()
})

describe('two server processes watching and pulling', () => {
  it('pull a renewal exactly once', async () => {
    const { ok, customerId } = merchant
    const prisma = app.application.services.database.prisma
    const plan = await ok('POST', '/v1/products', { name: 'Twice watched', type: 'subscription', defaultPrice: { amount: '6', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const subscription = await ok('POST', '/v1/subscriptions', { customerId, productId: plan.id, paymentMethod: 'usdc_pull' })
    const invoices = async () => ((await ok('GET', '/v1/invoices?limit=100')).items as { id: string; subscriptionId: string }[]).filter((invoice) => invoice.subscriptionId === subscription.id)
    const [first] = await invoices()
    await chain.transfer(token, 7, (await ok('GET', `/v1/invoices/${first!.id}`)).payment.address, 6_000_000n)
    await chain.approve(token, 7, signer, 60_000_000n)
    await chain.mine(2)
    const client = createChainClient(chain.rpcUrl, 5000)
    await scanUsdcTransfers(prisma, client, { chainId: chain.chainId, token, confirmations: 2 })
    await runUsdcSendWork(prisma, client, chain.chainId, token)
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active')

    await runningServers()
    const from = await chain.blockNumber()
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 32 * 86_400 })
    const renewal = (await invoices()).find((invoice) => invoice.id !== first!.id)!
    let status = 'open'
    for (let attempt = 0; attempt < 240 && status !== 'paid'; attempt += 1) {
      await chain.mine(1)
      await new Promise((resolve) => setTimeout(resolve, 250))
      status = (await ok('GET', `/v1/invoices/${renewal.id}`)).status
    }
    expect(status).toBe('paid')
    // Both processes keep watching a while longer: nothing more is sent or recorded.
    for (let round = 0; round < 8; round += 1) {
      await chain.mine(1)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const onChain = await chain.publicClient.getLogs({ address: token, event: transferEvent, args: { from: payer, to: signer }, fromBlock: from, toBlock: 'latest' })
    expect(onChain).toHaveLength(1)
    expect(await prisma.usdcSend.count({ where: { invoiceId: renewal.id } })).toBe(1)
    expect((await prisma.transaction.findMany({ where: { invoiceId: renewal.id } })).map((transaction) => transaction.status)).toEqual(['succeeded'])
    expect(servers.every((server) => server.child.exitCode === null)).toBe(true)
  }, 300_000)

  it('settle a deposit exactly once', async () => {
    const { ok, customerId } = merchant
    const prisma = app.application.services.database.prisma
    await runningServers()
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount: '3', currency: 'USDC' })
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('0.000000')
    await chain.transfer(token, 7, session.payment.address, 3_000_000n)
    let status = 'open'
    for (let attempt = 0; attempt < 240 && status !== 'paid'; attempt += 1) {
      await chain.mine(1)
      await new Promise((resolve) => setTimeout(resolve, 250))
      status = (await ok('GET', `/v1/checkout/sessions/${session.id}`)).status
    }
    expect(status).toBe('paid')
    for (let round = 0; round < 8; round += 1) {
      await chain.mine(1)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const deposit = await prisma.usdcDepositAddress.findUniqueOrThrow({ where: { checkoutSessionId: session.id } })
    expect(await prisma.usdcTransfer.count({ where: { depositAddressId: deposit.id } })).toBe(1)
    expect((await prisma.transaction.findMany({ where: { checkoutId: session.id } })).map((transaction) => transaction.status)).toEqual(['succeeded'])
    expect(await prisma.creditLedgerEntry.count({ where: { checkoutSessionId: session.id } })).toBe(1)
    expect((await ok('GET', `/v1/checkout/sessions/${session.id}`)).payment.amountReceived).toBe('3.000000')
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('3.000000')
    expect(servers.every((server) => server.child.exitCode === null)).toBe(true)
  }, 300_000)
})
