import { Prisma } from '../../generated/prisma/client'

/** An EIP-681 link a wallet opens to send exactly `amount` (major units) of the token to `address`. */
export function buildUsdcPaymentLink(token: string, chainId: number, address: string, amount: string): string {
  const units = new Prisma.Decimal(amount).mul(1_000_000).toFixed(0)
  return `ethereum:${token}@${chainId}/transfer?address=${address}&uint256=${units}`
}

const chainNames: Record<number, string> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  137: 'Polygon',
  8453: 'Base',
  42161: 'Arbitrum One',
  43114: 'Avalanche C-Chain',
  11155111: 'Sepolia (testnet)',
  84532: 'Base Sepolia (testnet)',
  31337: 'local chain (anvil)',
}

export function chainName(chainId: number): string {
  return `${chainNames[chainId] ?? 'EVM chain'} (chain id ${chainId})`
}
