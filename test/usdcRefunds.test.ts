import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAbiItem, type Address } from 'viem'
import { createChainClient } from '../src/payments/usdc/createChainClient'
import { recordAllUnappliedUsdcTransfers } from '../src/payments/usdc/recordUnappliedUsdcTransfers'
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

/** One step of the watcher loop (startUsdcWatchers): scan, record money no longer payable, the signer's work. */
async function step() {
  const prisma = app.application.services.database.prisma
  const client = createChainClient(chain.rpcUrl, 5000)
  await scanUsdcTransfers(prisma, client, { chainId: chain.chainId, token, confirmations: 3 })
  await recordAllUnappliedUsdcTransfers(prisma, chain.chainId, token)
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

  it('money beyond what a payable took (an excess, a late transfer, a transfer to a canceled session, a partial payment whose session was canceled) is a succeeded transaction of its own, refundable to its sender', async () => {
    const { ok, customerId } = merchant
    const prisma = app.application.services.database.prisma
    /** The transactions recording money sent to a session's address beyond the session's own payment. */
    const ownTransactions = async (checkoutSessionId: string) => {
      const deposit = await prisma.usdcDepositAddress.findUniqueOrThrow({ where: { checkoutSessionId } })
      const ids = new Set((await prisma.usdcTransfer.findMany({ where: { depositAddressId: deposit.id } })).map((transfer) => transfer.transactionId))
      return prisma.transaction.findMany({ where: { id: { in: [...ids].filter((id): id is string => id !== null) }, checkoutId: null }, orderBy: { createdAt: 'asc' } })
    }

    // Overpaid: 2 due, 2.5 sent. The session's payment is 2; the 0.5 is a transaction of its own.
    const overpaid = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount: '2', currency: 'USDC' })
    await chain.transfer(token, 6, overpaid.payment.address, 2_500_000n)
    await chain.mine(3)
    await step()
    expect(await ok('GET', `/v1/checkout/sessions/${overpaid.id}`)).toMatchObject({ status: 'paid', payment: { amountReceived: '2.500000' } })
    expect((await prisma.transaction.findUniqueOrThrow({ where: { checkoutId: overpaid.id } })).amount.toFixed(6)).toBe('2.000000')
    expect((await ownTransactions(overpaid.id)).map((transaction) => [transaction.status, transaction.amount.toFixed(6), transaction.customerId])).toEqual([['succeeded', '0.500000', customerId]])
    // Late: 1 more to the paid session's address. Recorded once, however many steps follow.
    await chain.transfer(token, 6, overpaid.payment.address, 1_000_000n)
    await chain.mine(3)
    await step()
    await chain.mine(1)
    await step()
    expect((await ownTransactions(overpaid.id)).map((transaction) => transaction.amount.toFixed(6))).toEqual(['0.500000', '1.000000'])

    // Partly paid, then canceled: the 1 that arrived becomes refundable at the next step.
    const partly = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount: '5', currency: 'USDC' })
    await chain.transfer(token, 6, partly.payment.address, 1_000_000n)
    await chain.mine(3)
    await step()
    expect(await ok('GET', `/v1/checkout/sessions/${partly.id}`)).toMatchObject({ status: 'open', payment: { amountReceived: '1.000000' } })
    expect(await ownTransactions(partly.id)).toEqual([])
    await ok('POST', `/v1/checkout/sessions/${partly.id}/cancel`, {})
    await step()
    expect((await ownTransactions(partly.id)).map((transaction) => transaction.amount.toFixed(6))).toEqual(['1.000000'])
    // Then a transfer to the canceled session: a transaction of its own too.
    await chain.transfer(token, 6, partly.payment.address, 750_000n)
    await chain.mine(3)
    await step()
    const unapplied = await ownTransactions(partly.id)
    expect(unapplied.map((transaction) => [transaction.status, transaction.amount.toFixed(6)])).toEqual([['succeeded', '1.000000'], ['succeeded', '0.750000']])
    expect((await ok('GET', `/v1/checkout/sessions/${partly.id}`)).status).toBe('canceled')
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('2.000000')

    // Each is refunded to its sender like any payment.
    const payerBefore = await chain.balanceOf(token, payer)
    const from = await chain.blockNumber()
    const refundable = [...(await ownTransactions(overpaid.id)), ...unapplied]
    for (const transaction of refundable) {
      const asked = await app.request('POST', `/v1/transactions/${transaction.id}/refund`, { key: merchant.key, body: {}, idempotencyKey: randomUUID() })
      expect(asked.status).toBe(202)
    }
    await step()
    await chain.mine(3)
    await step()
    for (const transaction of refundable) expect((await ok('GET', `/v1/transactions/${transaction.id}`)).status).toBe('refunded')
    const sent = await chain.publicClient.getLogs({ address: token, event: transferEvent, args: { from: signer, to: payer }, fromBlock: from, toBlock: 'latest' })
    expect(sent.map((log) => log.args.value!).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual([500_000n, 750_000n, 1_000_000n, 1_000_000n])
    expect(await chain.balanceOf(token, payer)).toBe(payerBefore + 3_250_000n)
    // The session's own payment still holds what it bought.
    expect((await ok('GET', `/v1/customers/${customerId}/credits?currency=USDC`)).balance).toBe('2.000000')
  })

  it('a payment completed by one overpaying transfer is refunded to its sender; excess from two senders is refunded to each', async () => {
    const { ok, customerId } = merchant
    const prisma = app.application.services.database.prisma
    const otherPayer = fundedAccount(7).address
    await chain.mint(token, otherPayer, 10_000_000n)
    // One transfer of 3 for 2 due: the payment records no transfer of its own (the excess does).
    const session = await ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId, amount: '2', currency: 'USDC' })
    await chain.transfer(token, 6, session.payment.address, 3_000_000n)
    // Two more senders' money to the paid session, in one step: one transaction each.
    await chain.mine(3)
    await step()
    await chain.transfer(token, 7, session.payment.address, 400_000n)
    await chain.transfer(token, 6, session.payment.address, 100_000n)
    await chain.mine(3)
    await step()
    const paid = await prisma.transaction.findUniqueOrThrow({ where: { checkoutId: session.id } })
    expect(paid.amount.toFixed(6)).toBe('2.000000')
    const deposit = await prisma.usdcDepositAddress.findUniqueOrThrow({ where: { checkoutSessionId: session.id } })
    const holders = (await prisma.usdcTransfer.findMany({ where: { depositAddressId: deposit.id } })).map((transfer) => transfer.transactionId!)
    const excess = await prisma.transaction.findMany({ where: { id: { in: holders }, checkoutId: null }, orderBy: { amount: 'asc' } })
    expect(excess.map((transaction) => transaction.amount.toFixed(6))).toEqual(['0.100000', '0.400000', '1.000000'])

    const from = await chain.blockNumber()
    for (const transaction of [paid, ...excess]) {
      const asked = await app.request('POST', `/v1/transactions/${transaction.id}/refund`, { key: merchant.key, body: {}, idempotencyKey: randomUUID() })
      expect(asked.status, JSON.stringify(asked.body)).toBe(202)
    }
    await step()
    await chain.mine(3)
    await step()
    for (const transaction of [paid, ...excess]) expect((await ok('GET', `/v1/transactions/${transaction.id}`)).status).toBe('refunded')
    const toPayer = await chain.publicClient.getLogs({ address: token, event: transferEvent, args: { from: signer, to: payer }, fromBlock: from, toBlock: 'latest' })
    const toOther = await chain.publicClient.getLogs({ address: token, event: transferEvent, args: { from: signer, to: otherPayer }, fromBlock: from, toBlock: 'latest' })
    expect(toPayer.map((log) => log.args.value!).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual([100_000n, 1_000_000n, 2_000_000n])
    expect(toOther.map((log) => log.args.value)).toEqual([400_000n])
  })
})
