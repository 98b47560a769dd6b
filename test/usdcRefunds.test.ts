import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAbiItem, type Address } from 'viem'
import { createChainClient } from '../src/payments/usdc/createChainClient'
import { runUsdcSendWork } from '../src/payments/usdc/runUsdcSendWork'
import { scanUsdcTransfers } from '../src/payments/usdc/scanUsdcTransfers'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { fundedAccount, startTestChain, type TestChain } from './support/testChain'
import { setUpUsdcMerchant, type UsdcMerchant } from './support/usdcMerchant'

// CONTRACT §9 refunds on the USDC rail: the signer sends from its own balance to the original
// sender, stored signed before it is broadcast like a pull; `refunded` (and the credits taken back)
// only once the receipt is confirmed at the account's depth.

let app: TestApplication
let chain: TestChain
let token: Address
let merchant: UsdcMerchant
const signer = fundedAccount(1).address
const payer = fundedAccount(6).address
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

async function step() {
  const prisma = app.application.services.database.prisma
  const client = createChainClient(chain.rpcUrl, 5000)
  await scanUsdcTransfers(prisma, client, { chainId: chain.chainId, token, confirmations: 3 })
  return runUsdcSendWork(prisma, client, chain.chainId, token)
}

beforeAll(async () => {
  ;[app, chain] = await Promise.all([startTestApplication(), startTestChain()])
  token = await chain.deployToken()
  await chain.mint(token, payer, 100_000_000n)
  await chain.mint(token, signer, 100_000_000n)
  merchant = await setUpUsdcMerchant(app, chain, token, { confirmations: 3, signer: true })
})
afterAll(async () => {
  await app.close()
  await chain.stop()
})

describe('USDC refunds', () => {
  it('a credits purchase paid on chain is refunded to its sender by the signer, counted at depth, and its credits taken back', async () => {
    const { ok, customerId } = merchant
    const prisma = app.application.services.database.prisma
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount: '5', currency: 'USDC' })
    await chain.transfer(token, 6, session.payment.address, 5_000_000n)
    await chain.mine(3)
    await step()
    expect((await ok('GET', `/v1/checkout/sessions/${session.id}`)).status).toBe('paid')
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('5.000000')
    const paid = await prisma.transaction.findFirstOrThrow({ where: { checkoutId: session.id } })
    const payerBefore = await chain.balanceOf(token, payer)

    const asked = await app.request('POST', `/v1/transactions/${paid.id}/refund`, { key: merchant.key, body: { amount: '2' }, idempotencyKey: randomUUID() })
    expect(asked.status).toBe(202)
    expect(asked.body.data).toMatchObject({ status: 'succeeded', amountRefunded: '0.000000' })
    // Asked for the rest too: both are pending, nothing more can be asked.
    const rest = await app.request('POST', `/v1/transactions/${paid.id}/refund`, { key: merchant.key, body: {}, idempotencyKey: randomUUID() })
    expect(rest.status).toBe(202)
    const more = await app.request('POST', `/v1/transactions/${paid.id}/refund`, { key: merchant.key, body: {}, idempotencyKey: randomUUID() })
    expect(more.status).toBe(409)

    const from = await chain.blockNumber()
    // Each send is mined in its own block (anvil mines one per transaction): depths 2 and 1 now.
    expect((await step()).signed).toBe(2)
    await step()
    expect((await ok('GET', `/v1/transactions/${paid.id}`)).amountRefunded).toBe('0.000000')
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('5.000000')
    await chain.mine(1)
    await step()
    expect(await ok('GET', `/v1/transactions/${paid.id}`)).toMatchObject({ status: 'succeeded', amountRefunded: '2.000000' })
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('3.000000')
    await chain.mine(1)
    await step()
    expect(await ok('GET', `/v1/transactions/${paid.id}`)).toMatchObject({ status: 'refunded', amountRefunded: '5.000000' })
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('0.000000')
    await chain.mine(3)
    await step()
    const sent = await chain.publicClient.getLogs({ address: token, event: transferEvent, args: { from: signer, to: payer }, fromBlock: from, toBlock: 'latest' })
    expect(sent.map((log) => log.args.value)).toEqual([2_000_000n, 3_000_000n])
    expect(await chain.balanceOf(token, payer)).toBe(payerBefore + 5_000_000n)
    const refunds = await prisma.refund.findMany({ where: { transactionId: paid.id }, orderBy: { amount: 'asc' } })
    expect(refunds.map((refund) => [refund.rail, refund.status, refund.amount.toFixed(6)])).toEqual([
      ['usdc', 'succeeded', '2.000000'],
      ['usdc', 'succeeded', '3.000000'],
    ])
    const adjustments = await prisma.creditLedgerEntry.findMany({ where: { checkoutSessionId: session.id, kind: 'adjustment' } })
    expect(adjustments.map((entry) => entry.amount.toFixed(6)).sort()).toEqual(['-2.000000', '-3.000000'])
  })
})
