import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress, parseAbiItem, type Address } from 'viem'
import { runBillingCycle } from '../src/billing/runBillingCycle'
import { createChainClient } from '../src/payments/usdc/createChainClient'
import { runUsdcSendWork } from '../src/payments/usdc/runUsdcSendWork'
import { scanUsdcTransfers } from '../src/payments/usdc/scanUsdcTransfers'
import type { SignOptions } from '../src/payments/usdc/signUsdcSends'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { fundedAccount, startTestChain, type TestChain } from './support/testChain'
import { setUpUsdcMerchant, type UsdcMerchant } from './support/usdcMerchant'

// CONTRACT §9.2 usdc_pull: the first invoice is paid by transfer and its sender becomes the payer;
// later invoices are collected by the signer's transferFrom, checked first (allowance, balance), sent
// once per invoice even across a crash, settled by the receipt at the configured depth. Each step of
// the watcher loop (scan, then the signer's work) is driven here by calling it.

let app: TestApplication
let chain: TestChain
let token: Address
let merchant: UsdcMerchant
const signer = fundedAccount(1).address
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
const day = 86_400

async function step(options: SignOptions = {}) {
  const prisma = app.application.services.database.prisma
  const client = createChainClient(chain.rpcUrl, 5000)
  await scanUsdcTransfers(prisma, client, { chainId: chain.chainId, token, confirmations: 3 })
  return runUsdcSendWork(prisma, client, chain.chainId, token, options)
}

/** Transfers of the token from `from` to `to` on chain since `fromBlock`. */
async function transfersOnChain(from: Address, to: Address, fromBlock = 0n) {
  return chain.publicClient.getLogs({ address: token, event: transferEvent, args: { from, to }, fromBlock, toBlock: 'latest' })
}

/** A monthly usdc_pull subscription whose first invoice `payerIndex` pays by transfer (confirmed), as its payer. */
async function subscribeAndPayFirst(ok: UsdcMerchant['ok'], customerId: string, payerIndex: number, amount: string) {
  const plan = await ok('POST', '/v1/products', { name: `Pulled ${amount}`, type: 'subscription', defaultPrice: { amount, currency: 'USDC', model: 'subscription', interval: 'month' } })
  const subscription = await ok('POST', '/v1/subscriptions', { customerId, productId: plan.id, paymentMethod: 'usdc_pull' })
  const first = (await invoicesOf(ok, subscription.id))[0]!
  const instructions = (await ok('GET', `/v1/invoices/${first.id}`)).payment
  const page = await fetch(`${app.baseUrl}/invoices/${first.id}`).then((response) => response.text())
  await chain.transfer(token, payerIndex, instructions.address, BigInt(Number(amount) * 1_000_000))
  await chain.mine(3)
  await step()
  expect((await ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active')
  return { subscription, first, instructions, page }
}

async function invoicesOf(ok: UsdcMerchant['ok'], subscriptionId: string): Promise<{ id: string; status: string }[]> {
  const items = (await ok('GET', '/v1/invoices?limit=100')).items as { id: string; status: string; subscriptionId: string }[]
  return items.filter((invoice) => invoice.subscriptionId === subscriptionId).reverse()
}

/** A merchant of its own (its own clock and wallet), on the same chain, token and signer. */
async function ownMerchant(wallet: number): Promise<UsdcMerchant> {
  const key = await app.createKey({ account: `usdc-pull-${wallet}-${randomUUID().slice(0, 8)}` })
  return setUpUsdcMerchant(app, chain, token, { key, confirmations: 3, signer: true, wallet })
}

beforeAll(async () => {
  ;[app, chain] = await Promise.all([startTestApplication(), startTestChain()])
  token = await chain.deployToken()
  for (const index of [2, 3, 4, 5, 8, 9]) await chain.mint(token, fundedAccount(index).address, 1_000_000_000n)
  merchant = await setUpUsdcMerchant(app, chain, token, { confirmations: 3, signer: true })
})
afterAll(async () => {
  await app.close()
  await chain.stop()
})

describe('usdc_pull', () => {
  it('three periods with one failure: paid by transfer, a pull short of allowance fails (past_due), paid by transfer again, then pulled at depth', async () => {
    const { ok } = merchant
    const payer = fundedAccount(2).address
    const prisma = app.application.services.database.prisma
    const { subscription, first, instructions, page } = await subscribeAndPayFirst(ok, merchant.customerId, 2, '10')
    // The first invoice asks for a transfer and names the signer to approve, with a suggested amount.
    expect(instructions).toMatchObject({ rail: 'usdc', amount: '10.000000', approveSpender: signer, approveAmount: '120.000000' })
    expect(page).toContain(signer)
    expect(page).toContain('120000000')
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).usdcPayer).toBe(payer)
    expect((await ok('GET', `/v1/invoices/${first.id}`)).status).toBe('paid')

    // Period 2: no allowance yet. The renewal waits for its pull, which fails before anything is sent.
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 32 * day })
    const [, second] = await invoicesOf(ok, subscription.id)
    expect((await ok('GET', `/v1/invoices/${second!.id}`)).payment).toMatchObject({ rail: 'usdc_pull', payer, approveSpender: signer, amountReceived: '0.000000' })
    const before = await chain.blockNumber()
    await step()
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('past_due')
    const failed = await ok('GET', `/v1/invoices/${second!.id}`)
    expect(failed.status).toBe('open')
    expect(failed.payment).toMatchObject({ rail: 'usdc', amount: '10.000000', approveSpender: signer })
    expect((await prisma.transaction.findMany({ where: { invoiceId: second!.id } })).map((transaction) => transaction.status)).toEqual(['failed'])
    expect(await transfersOnChain(payer, signer, before)).toHaveLength(0)
    // Attempted once: another step does not pull it again.
    await chain.approve(token, 2, signer, 100_000_000n)
    await step()
    expect(await prisma.usdcSend.count({ where: { invoiceId: second!.id } })).toBe(1)
    expect(await transfersOnChain(payer, signer, before)).toHaveLength(0)

    // The payer pays it by transfer to its deposit address: active again.
    await chain.transfer(token, 2, failed.payment.address, 10_000_000n)
    await chain.mine(3)
    await step()
    expect((await ok('GET', `/v1/invoices/${second!.id}`)).status).toBe('paid')
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active')

    // Period 3: pulled. Paid only at depth 3 of the pull's receipt, exactly once.
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 31 * day })
    const [, , third] = await invoicesOf(ok, subscription.id)
    const treasuryBefore = await chain.balanceOf(token, signer)
    const sentFrom = await chain.blockNumber()
    expect((await step()).signed).toBe(1)
    expect((await ok('GET', `/v1/invoices/${third!.id}`)).status).toBe('open')
    await chain.mine(1)
    await step()
    expect((await ok('GET', `/v1/invoices/${third!.id}`)).status).toBe('open')
    await chain.mine(1)
    await step()
    const pulled = await ok('GET', `/v1/invoices/${third!.id}`)
    expect(pulled).toMatchObject({ status: 'paid', payment: { rail: 'usdc_pull', payer, amountReceived: '10.000000' } })
    await chain.mine(5)
    await step()
    expect(await transfersOnChain(payer, signer, sentFrom)).toHaveLength(1)
    expect(await chain.balanceOf(token, signer)).toBe(treasuryBefore + 10_000_000n)
    expect((await prisma.transaction.findMany({ where: { invoiceId: third!.id } })).map((transaction) => transaction.status)).toEqual(['succeeded'])
    expect(await chain.publicClient.readContract({ address: token, abi: [parseAbiItem('function allowance(address,address) view returns (uint256)')], functionName: 'allowance', args: [payer, signer] })).toBe(90_000_000n)
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active')
  })

  it('a crash after the signed transferFrom is stored and before it reaches the node pulls exactly once: the same bytes are sent again', async () => {
    const { ok, customerId } = await ownMerchant(1)
    const payer = fundedAccount(3).address
    const prisma = app.application.services.database.prisma
    const { subscription } = await subscribeAndPayFirst(ok, customerId, 3, '7')
    await chain.approve(token, 3, signer, 100_000_000n)
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 32 * day })
    const renewal = (await invoicesOf(ok, subscription.id))[1]!
    const from = await chain.blockNumber()
    const nonceBefore = await chain.publicClient.getTransactionCount({ address: signer })

    await expect(step({ afterSigned: () => Promise.reject(new Error('killed after the commit, before the broadcast')) })).rejects.toThrow('killed')
    const stored = await prisma.usdcSend.findUniqueOrThrow({ where: { invoiceId: renewal.id } })
    expect(stored).toMatchObject({ status: 'signed', nonce: nonceBefore })
    expect(stored.rawTransaction).toMatch(/^0x/)
    expect(await transfersOnChain(payer, signer, from)).toHaveLength(0)

    // "Restarted": the next steps find the stored transaction and send the same bytes; nothing new is signed.
    const after = await step()
    expect(after.signed).toBe(0)
    await chain.mine(3)
    await step()
    await step()
    expect((await ok('GET', `/v1/invoices/${renewal.id}`)).status).toBe('paid')
    const onChain = await transfersOnChain(payer, signer, from)
    expect(onChain).toHaveLength(1)
    expect(onChain[0]!.transactionHash).toBe(stored.transactionHash)
    expect(await chain.publicClient.getTransactionCount({ address: signer })).toBe(nonceBefore + 1)
    expect(await prisma.usdcSend.count({ where: { invoiceId: renewal.id } })).toBe(1)
  })

  it('a crash after broadcasting and before the receipt: the next process finds the receipt by hash and settles once', async () => {
    const { ok, customerId } = await ownMerchant(2)
    const payer = fundedAccount(4).address
    const { subscription } = await subscribeAndPayFirst(ok, customerId, 4, '3')
    await chain.approve(token, 4, signer, 100_000_000n)
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 32 * day })
    const renewal = (await invoicesOf(ok, subscription.id))[1]!
    const from = await chain.blockNumber()
    // The broadcast happened; the process dies before it sees the receipt (its step ends here).
    await expect(step({ afterSigned: async (send) => {
      await chain.publicClient.sendRawTransaction({ serializedTransaction: send.rawTransaction as `0x${string}` })
      throw new Error('killed after the broadcast')
    } })).rejects.toThrow('killed')
    await chain.mine(3)
    await step()
    expect((await ok('GET', `/v1/invoices/${renewal.id}`)).status).toBe('paid')
    expect(await transfersOnChain(payer, signer, from)).toHaveLength(1)
  })
})

describe('a pull that reverts on chain', () => {
  it('a reverted receipt is a failed transaction and past_due; the invoice stays payable by transfer', async () => {
    const { ok, customerId } = await ownMerchant(4)
    const payer = fundedAccount(8).address
    const { subscription } = await subscribeAndPayFirst(ok, customerId, 8, '2')
    await chain.approve(token, 8, signer, 100_000_000n)
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 32 * day })
    const renewal = (await invoicesOf(ok, subscription.id))[1]!
    // The checks passed and the pull is signed; the payer withdraws the allowance before it is mined.
    await step({ afterSigned: () => chain.approve(token, 8, signer, 0n) })
    await chain.mine(3)
    await step()
    const prisma = app.application.services.database.prisma
    expect(await prisma.usdcSend.findUniqueOrThrow({ where: { invoiceId: renewal.id } })).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('reverted in block') })
    expect((await prisma.transaction.findMany({ where: { invoiceId: renewal.id } })).map((transaction) => transaction.status)).toEqual(['failed'])
    expect((await ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('past_due')
    const open = await ok('GET', `/v1/invoices/${renewal.id}`)
    expect(open).toMatchObject({ status: 'open', payment: { rail: 'usdc', amount: '2.000000' } })
    expect(await chain.balanceOf(token, payer)).toBe(1_000_000_000n - 2_000_000n)
  })
})

describe('a pull that confirms after its invoice was paid another way', () => {
  it('is a succeeded transaction of its own, refundable to the payer through POST /v1/transactions/{id}/refund', async () => {
    const { ok, customerId, key } = await ownMerchant(5)
    const payer = fundedAccount(9).address
    const prisma = app.application.services.database.prisma
    const { subscription } = await subscribeAndPayFirst(ok, customerId, 9, '5')
    await chain.approve(token, 9, signer, 100_000_000n)
    await ok('POST', '/v1/test_helpers/clock/advance', { seconds: 32 * day })
    const renewal = (await invoicesOf(ok, subscription.id))[1]!
    // The pull is signed and broadcast; before it is deep enough the invoice gets paid another way.
    await step({ afterSigned: async () => {
      await ok('POST', `/v1/test_helpers/invoices/${renewal.id}/pay`, {})
    } })
    expect((await ok('GET', `/v1/invoices/${renewal.id}`)).status).toBe('paid')
    await chain.mine(3)
    await step()
    const send = await prisma.usdcSend.findUniqueOrThrow({ where: { invoiceId: renewal.id } })
    expect(send.status).toBe('succeeded')
    const recorded = await prisma.transaction.findMany({ where: { invoiceId: renewal.id }, orderBy: { createdAt: 'asc' } })
    expect(recorded.map((transaction) => [transaction.status, transaction.amount.toFixed(6)])).toEqual([['succeeded', '5.000000'], ['succeeded', '5.000000']])
    const pulled = recorded.find((transaction) => transaction.id === send.transactionId)!
    expect(pulled).toBeDefined()
    expect(await ok('GET', `/v1/transactions/${pulled.id}`)).toMatchObject({ status: 'succeeded', amount: '5.000000', amountRefunded: '0.000000' })

    const before = await chain.blockNumber()
    const payerBefore = await chain.balanceOf(token, payer)
    const asked = await app.request('POST', `/v1/transactions/${pulled.id}/refund`, { key, body: {}, idempotencyKey: randomUUID() })
    expect(asked.status).toBe(202)
    await step()
    await chain.mine(3)
    await step()
    expect(await ok('GET', `/v1/transactions/${pulled.id}`)).toMatchObject({ status: 'refunded', amountRefunded: '5.000000' })
    const refunds = await chain.publicClient.getLogs({ address: token, event: transferEvent, args: { from: signer, to: payer }, fromBlock: before, toBlock: 'latest' })
    expect(refunds.map((log) => log.args.value)).toEqual([5_000_000n])
    expect(await chain.balanceOf(token, payer)).toBe(payerBefore + 5_000_000n)
  })
})

describe('no fake money on a live account', () => {
  it('a usdc_pull renewal stays open with nothing recorded until its pull is confirmed at depth; the sandbox helpers do not exist', async () => {
    const name = `usdc-live-${randomUUID().slice(0, 8)}`
    const key = await app.createKey({ account: name, mode: 'live' })
    const live = await setUpUsdcMerchant(app, chain, token, { key, confirmations: 3, signer: true, wallet: 3 })
    const prisma = app.application.services.database.prisma
    const payer = fundedAccount(5).address
    const plan = await live.ok('POST', '/v1/products', { name: 'Live', type: 'subscription', defaultPrice: { amount: '4', currency: 'USDC', model: 'subscription', interval: 'month' } })
    const subscription = await live.ok('POST', '/v1/subscriptions', { customerId: live.customerId, productId: plan.id, paymentMethod: 'usdc_pull' })
    const [first] = await invoicesOf(live.ok, subscription.id)
    expect((await app.request('POST', `/v1/test_helpers/invoices/${first!.id}/pay`, { key, body: {}, idempotencyKey: randomUUID() })).status).toBe(404)
    const address = (await live.ok('GET', `/v1/invoices/${first!.id}`)).payment.address
    await chain.transfer(token, 5, address, 4_000_000n)
    await chain.mine(1)
    await step()
    expect((await live.ok('GET', `/v1/invoices/${first!.id}`)).status).toBe('open')
    await chain.mine(1)
    await step()
    expect((await live.ok('GET', `/v1/invoices/${first!.id}`)).status).toBe('paid')
    await chain.approve(token, 5, signer, 100_000_000n)

    const account = await prisma.account.findUniqueOrThrow({ where: { name } })
    expect((await runBillingCycle(prisma, { accountId: account.id, realNow: new Date(Date.now() + 35 * day * 1000) })).renewed).toBe(1)
    const renewal = (await invoicesOf(live.ok, subscription.id))[1]!
    expect(renewal.status).toBe('open')
    expect(await prisma.transaction.count({ where: { invoiceId: renewal.id } })).toBe(0)
    await step()
    await chain.mine(1)
    await step()
    expect((await live.ok('GET', `/v1/invoices/${renewal.id}`)).status).toBe('open')
    expect(await prisma.transaction.count({ where: { invoiceId: renewal.id } })).toBe(0)
    await chain.mine(1)
    await step()
    expect((await live.ok('GET', `/v1/invoices/${renewal.id}`)).status).toBe('paid')
    expect(getAddress((await prisma.usdcSend.findUniqueOrThrow({ where: { invoiceId: renewal.id } })).fromAddress!)).toBe(payer)
  })
})
