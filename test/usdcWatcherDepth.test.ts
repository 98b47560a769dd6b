import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { startUsdcWatchers, type UsdcWatchers } from '../src/payments/usdc/startUsdcWatchers'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { fundedAccount, startTestChain, type TestChain } from './support/testChain'
import { setUpUsdcMerchant, type UsdcMerchant } from './support/usdcMerchant'

// One watcher loop per chain and token, however many accounts share it: when their confirmations
// differ, it reads only blocks deep enough for the deepest, so no account settles below its own depth.
// Driven by the real loop (as in the server); each check waits for the cursor to show the loop read
// all it may, then asserts what it settled.

let app: TestApplication
let chain: TestChain
let token: Address
let shallow: UsdcMerchant
let deep: UsdcMerchant
let watchers: UsdcWatchers

beforeAll(async () => {
  ;[app, chain] = await Promise.all([startTestApplication(), startTestChain()])
  token = await chain.deployToken()
  await chain.mint(token, fundedAccount(2).address, 100_000_000n)
  shallow = await setUpUsdcMerchant(app, chain, token, { confirmations: 2, pollSeconds: 1 })
  deep = await setUpUsdcMerchant(app, chain, token, { key: await app.createKey({ account: 'deep-shop' }), confirmations: 4, pollSeconds: 1, wallet: 1 })
  watchers = startUsdcWatchers(app.application.services.database.prisma, 200)
})
afterAll(async () => {
  await watchers.stop()
  await app.close()
  await chain.stop()
})

async function cursorReaches(block: bigint): Promise<void> {
  const prisma = app.application.services.database.prisma
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const cursor = await prisma.usdcWatchCursor.findFirstOrThrow()
    if (cursor.nextBlock >= block) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the watcher never read block ${block - 1n}`)
}

describe('accounts on one chain and token with different confirmations', () => {
  it('the shared watcher waits for the deepest: a 2-confirmation account is not paid at depth 3 while another asks for 4', async () => {
    const sessions = await Promise.all([shallow, deep].map((merchant) =>
      merchant.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: merchant.customerId, amount: '1', currency: 'USDC' })))
    await chain.transfer(token, 2, sessions[0].payment.address, 1_000_000n)
    const mined = await chain.blockNumber()
    await chain.transfer(token, 2, sessions[1].payment.address, 1_000_000n)
    // Depth 3 for the first transfer: the loop reads up to head − 4 + 1, the block before it (a loop
    // reading at depth 2 would have read the transfer's block too, and paid the first session).
    await chain.mine(1)
    await cursorReaches(mined)
    expect((await shallow.ok('GET', `/v1/checkout/sessions/${sessions[0].id}`)).status).toBe('open')
    expect((await deep.ok('GET', `/v1/checkout/sessions/${sessions[1].id}`)).status).toBe('open')
    // Depth 4 for the first, 3 for the second.
    await chain.mine(1)
    await cursorReaches(mined + 1n)
    expect((await shallow.ok('GET', `/v1/checkout/sessions/${sessions[0].id}`)).status).toBe('paid')
    expect((await deep.ok('GET', `/v1/checkout/sessions/${sessions[1].id}`)).status).toBe('open')
    await chain.mine(1)
    await cursorReaches(mined + 2n)
    expect((await deep.ok('GET', `/v1/checkout/sessions/${sessions[1].id}`)).status).toBe('paid')
  })
})
