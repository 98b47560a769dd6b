import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundedAccount, startTestChain, type TestChain } from './support/testChain'

// The local chain the USDC tests stand on: a real anvil, a real 6-decimal token, real reverts.
let chain: TestChain
beforeAll(async () => {
  chain = await startTestChain()
})
afterAll(async () => {
  await chain.stop()
})

describe('the test chain', () => {
  it('deploys a 6-decimal token, transfers, mines, and reverts a snapshot', async () => {
    const token = await chain.deployToken()
    const payer = fundedAccount(1).address
    const receiver = fundedAccount(2).address
    await chain.mint(token, payer, 5_000_000n)
    const snapshot = await chain.snapshot()
    const before = await chain.blockNumber()
    await chain.transfer(token, 1, receiver, 1_250_000n)
    expect(await chain.balanceOf(token, receiver)).toBe(1_250_000n)
    await chain.mine(3)
    expect(await chain.blockNumber()).toBe(before + 4n)
    await chain.revert(snapshot)
    expect(await chain.balanceOf(token, receiver)).toBe(0n)
    expect(await chain.blockNumber()).toBe(before)
    await expect(chain.transfer(token, 2, payer, 1n)).rejects.toThrow()
  })
})
