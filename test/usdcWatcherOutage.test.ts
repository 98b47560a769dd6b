import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { createChainClient } from '../src/payments/usdc/createChainClient'
import { scanUsdcTransfers } from '../src/payments/usdc/scanUsdcTransfers'
import { startUsdcWatchers } from '../src/payments/usdc/startUsdcWatchers'
import { startTcpProxy, type TcpProxy } from './support/startTcpProxy'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { fundedAccount, startTestChain, type TestChain } from './support/testChain'
import { setUpUsdcMerchant, type UsdcMerchant } from './support/usdcMerchant'

// CONTRACT §9.2 "the RPC node being down or slow never loses a payment: the cursor only moves past
// blocks that were fully processed". The merchant's node is reached through a proxy the test can
// hang: requests are accepted and not answered until it resumes. Which block ranges the watcher asked
// for is read from what the proxy forwarded, so a skipped block would show as a gap.

let app: TestApplication
let chain: TestChain
let proxy: TcpProxy
let token: Address
let merchant: UsdcMerchant
const payer = fundedAccount(2).address

interface LogRange {
  from: bigint
  to: bigint
}

/** The eth_getLogs ranges in the order the node received them (from `forwarded`, the proxy's text). */
function requestedRanges(forwarded: string): LogRange[] {
  return [...forwarded.matchAll(/"method":"eth_getLogs"[^\n]*/g)].map(([request]) => ({
    from: BigInt(/"fromBlock":"(0x[0-9a-f]+)"/.exec(request)![1]!),
    to: BigInt(/"toBlock":"(0x[0-9a-f]+)"/.exec(request)![1]!),
  }))
}

/** Each range starts at most right after the one before (read again after a failure, never skipped). */
function expectNoGaps(ranges: LogRange[], start: bigint): void {
  expect(ranges[0]?.from).toBe(start)
  for (const [index, range] of ranges.entries()) {
    expect(range.to).toBeGreaterThanOrEqual(range.from)
    if (index > 0) expect(range.from).toBeLessThanOrEqual(ranges[index - 1]!.to + 1n)
  }
}

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`never happened: ${what}`)
}

const session = (amount: string) => merchant.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: merchant.customerId, amount, currency: 'USDC' })
const read = (id: string) => merchant.ok('GET', `/v1/checkout/sessions/${id}`)
const cursor = () => app.application.services.database.prisma.usdcWatchCursor.findUniqueOrThrow({ where: { chainId_token: { chainId: chain.chainId, token } } })

beforeAll(async () => {
  ;[app, chain] = await Promise.all([startTestApplication(), startTestChain()])
  proxy = await startTcpProxy('127.0.0.1', chain.anvil.port)
  token = await chain.deployToken()
  await chain.mint(token, payer, 1_000_000_000n)
  merchant = await setUpUsdcMerchant(app, chain, token, { confirmations: 2, pollSeconds: 1, rpcUrl: `http://127.0.0.1:${proxy.port}` })
})
afterAll(async () => {
  await app.close()
  await proxy.close()
  await chain.stop()
})

describe('the watcher through an RPC outage', () => {
  it('the node hangs in the middle of a watcher step (blocks read, logs asked for); a payment made meanwhile settles exactly once after it answers, and no block is skipped', async () => {
    const prisma = app.application.services.database.prisma
    const start = (await cursor()).nextBlock
    const paying = await session('4')
    const watchers = startUsdcWatchers(prisma, 200)
    try {
      // The loop has read the head and the cursor and sent eth_getLogs when the node stops answering.
      const hung = proxy.pauseOn('"method":"eth_getLogs"')
      await chain.mine(2)
      await hung
      const held = await cursor()
      const transfer = await chain.transfer(token, 2, paying.payment.address, 4_000_000n)
      await chain.mine(3)
      expect((await read(paying.id)).status).toBe('open')
      expect((await cursor()).nextBlock).toBe(held.nextBlock)
      proxy.resume()

      await waitFor(async () => (await read(paying.id)).status === 'paid', 'the session paid')
      // A few more steps after the settlement: nothing is recorded twice.
      const head = await chain.mine(2).then(() => chain.blockNumber())
      await waitFor(async () => (await cursor()).nextBlock === head, 'the cursor at the confirmed head')
      const transferBlock = (await chain.publicClient.getTransactionReceipt({ hash: transfer })).blockNumber
      const ranges = requestedRanges(proxy.forwarded())
      expectNoGaps(ranges, start)
      expect(ranges.some((range) => range.from <= transferBlock && transferBlock <= range.to)).toBe(true)
    } finally {
      await watchers.stop()
    }
    expect(await prisma.transaction.count({ where: { checkoutId: paying.id } })).toBe(1)
    const deposit = await prisma.usdcDepositAddress.findUniqueOrThrow({ where: { checkoutSessionId: paying.id } })
    expect(await prisma.usdcTransfer.count({ where: { depositAddressId: deposit.id } })).toBe(1)
    expect(await read(paying.id)).toMatchObject({ status: 'paid', payment: { amountReceived: '4.000000' } })
    expect((await merchant.ok('GET', `/v1/customers/${merchant.customerId}/credits?currency=USDC`)).balance).toBe('4.000000')
  })

  it('one scan reads many blocks in bounded ranges, each right after the one before, up to the confirmed head', async () => {
    const prisma = app.application.services.database.prisma
    const sessions = await Promise.all(['1', '2', '3'].map((amount) => session(amount)))
    for (const [index, paying] of sessions.entries()) {
      await chain.transfer(token, 2, paying.payment.address, BigInt(index + 1) * 1_000_000n)
      await chain.mine(2)
    }
    const start = (await cursor()).nextBlock
    const head = await chain.blockNumber()
    const confirmedHead = head - 2n + 1n
    const before = proxy.forwarded().length
    const scanned = await scanUsdcTransfers(prisma, createChainClient(`http://127.0.0.1:${proxy.port}`, 5000), { chainId: chain.chainId, token, confirmations: 2 }, 2)
    expect(scanned).toEqual({ blocks: Number(confirmedHead - start + 1n), recorded: 3 })
    const ranges = requestedRanges(proxy.forwarded().slice(before))
    expect(ranges.length).toBeGreaterThanOrEqual(4)
    expect(ranges.every((range) => range.to - range.from + 1n <= 2n)).toBe(true)
    expect(ranges[0]!.from).toBe(start)
    for (const [index, range] of ranges.entries()) if (index > 0) expect(range.from).toBe(ranges[index - 1]!.to + 1n)
    expect(ranges.at(-1)!.to).toBe(confirmedHead)
    expect((await cursor()).nextBlock).toBe(confirmedHead + 1n)
    for (const paying of sessions) expect((await read(paying.id)).status).toBe('paid')
  })
})
