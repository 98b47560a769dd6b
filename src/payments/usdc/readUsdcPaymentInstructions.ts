import { getAddress } from 'viem'
import type { Database } from '../../domain/DomainContext'
import { formatAmount } from '../../domain/money'
import { Prisma } from '../../generated/prisma/client'

export interface UsdcPaymentInstructions {
  rail: 'usdc'
  chainId: number
  token: string
  address: string
  /** What is due, 6 decimals. */
  amount: string
  /** Confirmed transfers to the address, 6 decimals (may exceed `amount`: the excess is refundable). */
  amountReceived: string
}

export interface UsdcPullPaymentInstructions {
  rail: 'usdc_pull'
  chainId: number
  token: string
  payer: string
  amountReceived: string
}

export type UsdcInstructions = UsdcPaymentInstructions | UsdcPullPaymentInstructions

export interface UsdcPayable {
  kind: 'checkout' | 'invoice'
  id: string
  amountDue: Prisma.Decimal
  amountPaid?: Prisma.Decimal
  /** For a usdc_pull invoice without a deposit address: the subscription's payer. */
  pullPayer?: { accountId: string; payer: string | null } | null
}

/** The USDC instructions of many payables in two queries (CONTRACT §9: null until instructions exist). */
export async function readUsdcPaymentInstructions(db: Database, payables: readonly UsdcPayable[]): Promise<(UsdcInstructions | null)[]> {
  const sessionIds = payables.filter((payable) => payable.kind === 'checkout').map((payable) => payable.id)
  const invoiceIds = payables.filter((payable) => payable.kind === 'invoice').map((payable) => payable.id)
  const addresses = await db.usdcDepositAddress.findMany({ where: { OR: [{ checkoutSessionId: { in: sessionIds } }, { invoiceId: { in: invoiceIds } }] } })
  const received = addresses.length === 0 ? [] : await db.usdcTransfer.groupBy({ by: ['depositAddressId'], where: { depositAddressId: { in: addresses.map((address) => address.id) } }, _sum: { amount: true } })
  const pullAccounts = [...new Set(payables.flatMap((payable) => (payable.pullPayer?.payer ? [payable.pullPayer.accountId] : [])))]
  const providers = pullAccounts.length === 0 ? [] : await db.usdcProvider.findMany({ where: { accountId: { in: pullAccounts } } })
  return payables.map((payable) => {
    const address = addresses.find((candidate) => (payable.kind === 'checkout' ? candidate.checkoutSessionId : candidate.invoiceId) === payable.id)
    if (address) {
      const sum = received.find((row) => row.depositAddressId === address.id)?._sum.amount ?? new Prisma.Decimal(0)
      return {
        rail: 'usdc',
        chainId: address.chainId,
        token: address.token,
        address: getAddress(address.address),
        amount: formatAmount(payable.amountDue, 'USDC'),
        amountReceived: formatAmount(sum, 'USDC'),
      }
    }
    const pull = payable.pullPayer
    const provider = pull?.payer ? providers.find((candidate) => candidate.accountId === pull.accountId) : undefined
    if (pull?.payer && provider) {
      return { rail: 'usdc_pull', chainId: provider.chainId, token: provider.token, payer: getAddress(pull.payer), amountReceived: formatAmount(payable.amountPaid ?? 0, 'USDC') }
    }
    return null
  })
}
