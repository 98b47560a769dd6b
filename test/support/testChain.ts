import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Address, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { testEighteenDecimalsBytecode, testUsdcAbi, testUsdcBytecode } from './contracts/testUsdcArtifact'
import { startAnvil, type Anvil } from './startAnvil'

// A local chain for a test file: anvil, a deployed 6-decimal token, and the moves a test needs
// (transfer, mine, snapshot/revert). anvil's funded accounts come from the well-known test mnemonic.

export const testMnemonic = 'test test test test test test test test test test test junk'

export function fundedAccount(index: number) {
  return mnemonicToAccount(testMnemonic, { addressIndex: index })
}

/**
 * A merchant's receiving wallet: an xpub at m/44'/60'/N' (children 0/i are its deposit addresses).
 * Accounts sharing a chain in one test need their own N, as two real merchants have their own wallets.
 */
export function merchantXpub(wallet = 0): string {
  return merchantWallet(wallet).publicExtendedKey
}

/** The merchant's wallet key at m/44'/60'/N', private key included (what must never be configured). */
export function merchantWallet(wallet = 0): HDKey {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync('legal winner thank year wave sausage worth useful legal winner thank yellow'))
  return root.derive(`m/44'/60'/${wallet}'`)
}

export interface TestChain {
  anvil: Anvil
  rpcUrl: string
  chainId: number
  publicClient: ReturnType<typeof createPublicClient>
  testClient: ReturnType<typeof createTestClient>
  /** The 6-decimal test USDC, or an ordinary 18-decimal ERC-20 (which a USDC provider must refuse). */
  deployToken(decimals?: 6 | 18): Promise<Address>
  mint(token: Address, to: Address, units: bigint): Promise<void>
  /** A transfer from funded account `fromIndex`, mined in its own block; returns the transaction hash. */
  transfer(token: Address, fromIndex: number, to: Address, units: bigint): Promise<Hex>
  approve(token: Address, fromIndex: number, spender: Address, units: bigint): Promise<void>
  balanceOf(token: Address, owner: Address): Promise<bigint>
  mine(blocks: number): Promise<void>
  blockNumber(): Promise<bigint>
  snapshot(): Promise<Hex>
  revert(id: Hex): Promise<void>
  stop(): Promise<void>
}

export async function startTestChain(): Promise<TestChain> {
  const anvil = await startAnvil()
  const transport = http(anvil.rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 50, cacheTime: 0 })
  const testClient = createTestClient({ chain: foundry, mode: 'anvil', transport, pollingInterval: 50, cacheTime: 0 })
  const wallet = (index: number) => createWalletClient({ chain: foundry, transport, account: fundedAccount(index), pollingInterval: 50, cacheTime: 0 })
  const waitMined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
  }
  return {
    anvil,
    rpcUrl: anvil.rpcUrl,
    chainId: foundry.id,
    publicClient,
    testClient,
    async deployToken(decimals = 6) {
      const hash = await wallet(0).deployContract({ abi: testUsdcAbi, bytecode: decimals === 6 ? testUsdcBytecode : testEighteenDecimalsBytecode })
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      return getAddress(receipt.contractAddress!)
    },
    async mint(token, to, units) {
      await waitMined(await wallet(0).writeContract({ address: token, abi: testUsdcAbi, functionName: 'mint', args: [to, units] }))
    },
    async transfer(token, fromIndex, to, units) {
      const hash = await wallet(fromIndex).writeContract({ address: token, abi: testUsdcAbi, functionName: 'transfer', args: [to, units] })
      await waitMined(hash)
      return hash
    },
    async approve(token, fromIndex, spender, units) {
      await waitMined(await wallet(fromIndex).writeContract({ address: token, abi: testUsdcAbi, functionName: 'approve', args: [spender, units] }))
    },
    balanceOf: (token, owner) => publicClient.readContract({ address: token, abi: testUsdcAbi, functionName: 'balanceOf', args: [owner] }),
    mine: (blocks) => testClient.mine({ blocks }),
    blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
    snapshot: () => testClient.snapshot(),
    revert: (id) => testClient.revert({ id }),
    stop: () => anvil.stop(),
  }
}
