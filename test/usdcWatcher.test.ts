import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { createChainClient } from '../src/payments/usdc/createChainClient'
import { scanUsdcTransfers, type WatchedToken } from '../src/payments/usdc/scanUsdcTransfers'
import { startTcpProxy, type TcpProxy } from './support/startTcpProxy'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { fundedAccount, startTestChain, type TestChain } from './support/testChain'
import { setUpUsdcMerchant, type UsdcMerchant } from './support/usdcMerchant'

// CONTRACT §9.2: the watcher reads Transfer logs from a stored cursor, settles at the configured
// depth (head − block + 1), exactly once, adds partial transfers up, ignores other tokens, and loses
// nothing when the node is unreachable. Each step is driven here by calling one scan.

let app: TestApplication
let chain: TestChain
let proxy: TcpProxy
let token: Address
let merchant: UsdcMerchant
let watched: WatchedToken
const payer = fundedAccount(2).address

const scan = () => scanUsdcTransfers(app.application.services.database.prisma, createChainClient(`http://127.0.0.1:${proxy.port}`, 2000), watched)
const session = async (amount: string) => merchant.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: merchant.customerId, amount, currency: 'USDC' })
const read = async (id: string) => merchant.ok('GET', `/v1/checkout/sessions/${id}`)

beforeAll(async () => {
  ;[app, chain] = await Promise.all([startTestApplication(), startTestChain()])
  proxy = await startTcpProxy('127.0.0.1', chain.anvil.port)
  token = await chain.deployToken()
  await chain.mint(token, payer, 1_000_000_000n)
  merchant = await setUpUsdcMerchant(app, chain, token, { confirmations: 3 })
  watched = { chainId: chain.chainId, token, confirmations: 3 }
})
afterAll(async () => {
  await app.close()
  await proxy.close()
  await chain.stop()
})

describe('the chain watcher', () => {
  it('settles at depth 3, not at depth 2, exactly once', async () => {
    const paying = await session('2.5')
    await chain.transfer(token, 2, paying.payment.address, 2_500_000n)
    await chain.mine(1)
    await scan()
    expect((await read(paying.id)).status).toBe('open')
    await chain.mine(1)
    await scan()
    const paid = await read(paying.id)
    expect(paid.status).toBe('paid')
    expect(paid.payment.amountReceived).toBe('2.500000')
    await chain.mine(5)
    await scan()
    const transactions = await app.application.services.database.prisma.transaction.count({ where: { checkoutId: paying.id } })
    expect(transactions).toBe(1)
    expect((await merchant.ok('GET', `/v1/customers/${merchant.customerId}/credits?currency=USDC`)).balance).toBe('2.500000')
    // The settlement's events, once each, though the transfer was scanned again at greater depth.
    const events = (await merchant.ok('GET', '/v1/events?limit=500')).items as { type: string; data: Record<string, unknown> }[]
    const transaction = (await merchant.ok('GET', '/v1/transactions?limit=100')).items.find((candidate: { checkoutId: string }) => candidate.checkoutId === paying.id)
    expect(events.filter((event) => event.type === 'checkout.session.completed' && event.data.id === paying.id).map((event) => event.data)).toEqual([await read(paying.id)])
    expect(events.filter((event) => event.type === 'transaction.succeeded' && event.data.checkoutId === paying.id).map((event) => event.data)).toEqual([transaction])
    expect(events.filter((event) => event.type === 'credits.granted').map((event) => [event.data.customerId, event.data.amount, event.data.balance])).toEqual([[merchant.customerId, '2.500000', '2.500000']])
  })

  it('adds two partial transfers up; a transfer of another token settles nothing; an extra transfer is shown', async () => {
    const other = await chain.deployToken()
    await chain.mint(other, payer, 10_000_000n)
    const paying = await session('3')
    await chain.transfer(other, 2, paying.payment.address, 3_000_000n)
    await chain.transfer(token, 2, paying.payment.address, 1_000_000n)
    await chain.mine(3)
    await scan()
    const partly = await read(paying.id)
    expect(partly).toMatchObject({ status: 'open', payment: { amountReceived: '1.000000' } })
    await chain.transfer(token, 2, paying.payment.address, 2_500_000n)
    await chain.mine(3)
    await scan()
    expect(await read(paying.id)).toMatchObject({ status: 'paid', payment: { amountReceived: '3.500000' } })
    await chain.transfer(token, 2, paying.payment.address, 1_000_000n)
    await chain.mine(3)
    await scan()
    expect((await read(paying.id)).payment.amountReceived).toBe('4.500000')
  })

  it('a reorg before depth settles nothing; the transfer mined again afterwards settles', async () => {
    const paying = await session('1')
    const snapshot = await chain.snapshot()
    await chain.transfer(token, 2, paying.payment.address, 1_000_000n)
    await chain.mine(1)
    await scan()
    await chain.revert(snapshot)
    await chain.mine(5)
    await scan()
    expect(await read(paying.id)).toMatchObject({ status: 'open', payment: { amountReceived: '0.000000' } })
    await chain.transfer(token, 2, paying.payment.address, 1_000_000n)
    await chain.mine(3)
    await scan()
    expect((await read(paying.id)).status).toBe('paid')
  })

  it('an RPC outage loses nothing: a payment made during it settles once the node answers again', async () => {
    const paying = await session('4')
    await proxy.cut()
    await chain.transfer(token, 2, paying.payment.address, 4_000_000n)
    await chain.mine(3)
    await expect(scan()).rejects.toThrow()
    const cursor = await app.application.services.database.prisma.usdcWatchCursor.findFirstOrThrow()
    expect(cursor.nextBlock).toBeLessThan(await chain.blockNumber())
    await proxy.restore()
    await scan()
    expect((await read(paying.id)).status).toBe('paid')
  })

  it('two watchers scanning the same blocks at once settle each transfer exactly once', async () => {
    const sessions = await Promise.all(['1', '2', '3'].map((amount) => session(amount)))
    for (const [index, paying] of sessions.entries()) await chain.transfer(token, 2, paying.payment.address, BigInt(index + 1) * 1_000_000n)
    await chain.mine(3)
    await Promise.all([scan(), scan(), scan()])
    const prisma = app.application.services.database.prisma
    for (const paying of sessions) {
      expect((await read(paying.id)).status).toBe('paid')
      expect(await prisma.transaction.count({ where: { checkoutId: paying.id } })).toBe(1)
    }
    expect(await prisma.creditLedgerEntry.count({ where: { checkoutSessionId: { in: sessions.map((paying) => paying.id) } } })).toBe(3)
  })
})
