import { getAddress } from 'viem'
import type { Database } from '../../domain/DomainContext'
import { formatAmount } from '../../domain/money'
import { Prisma } from '../../generated/prisma/client'

/** How a usdc_pull payer lets the signer collect later periods: `approve(spender, amount)` on the token. */
export interface UsdcApproval {
  approveSpender: string | null
  /** A suggestion: twelve periods of this invoice's amount (the payer may approve any amount). */
  approveAmount: string | null
}

export interface UsdcPaymentInstructions extends UsdcApproval {
  rail: 'usdc'
  chainId: number
  token: string
  address: string
  /** What is due, 6 decimals. */
  amount: string
  /** Confirmed transfers to the address, 6 decimals (may exceed `amount`: the excess is refundable). */
  amountReceived: string
}

export interface UsdcPullPaymentInstructions extends UsdcApproval {
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
  /** A usdc_pull invoice: its account and the subscription's payer (null until the first payment). */
  pullPayer?: { accountId: string; payer: string | null } | null
}

/**
 * The USDC instructions of many payables in a few queries (CONTRACT §9: null until instructions
 * exist). A usdc_pull invoice whose subscription has a payer shows `usdc_pull` (collected by the
 * signer) unless its pull failed: then, as for every other payable, its deposit address. Either way a
 * usdc_pull invoice names the signer to approve.
 */
export async function readUsdcPaymentInstructions(db: Database, payables: readonly UsdcPayable[]): Promise<(UsdcInstructions | null)[]> {
  const sessionIds = payables.filter((payable) => payable.kind === 'checkout').map((payable) => payable.id)
  const invoiceIds = payables.filter((payable) => payable.kind === 'invoice').map((payable) => payable.id)
  const addresses = await db.usdcDepositAddress.findMany({ where: { OR: [{ checkoutSessionId: { in: sessionIds } }, { invoiceId: { in: invoiceIds } }] } })
  const received = addresses.length === 0 ? [] : await db.usdcTransfer.groupBy({ by: ['depositAddressId'], where: { depositAddressId: { in: addresses.map((address) => address.id) } }, _sum: { amount: true } })
  const pulled = payables.filter((payable) => payable.pullPayer)
  const pullAccounts = [...new Set(pulled.map((payable) => payable.pullPayer!.accountId))]
  const providers = pullAccounts.length === 0 ? [] : await db.usdcProvider.findMany({ where: { accountId: { in: pullAccounts } } })
  const pulls = pulled.length === 0 ? [] : await db.usdcSend.findMany({ where: { invoiceId: { in: pulled.map((payable) => payable.id) } }, select: { invoiceId: true, status: true } })
  return payables.map((payable) => {
    const pull = payable.pullPayer
    const provider = pull ? providers.find((candidate) => candidate.accountId === pull.accountId) : undefined
    const approval: UsdcApproval = {
      approveSpender: provider?.signerAddress ? getAddress(provider.signerAddress) : null,
      approveAmount: provider?.signerAddress ? formatAmount(payable.amountDue.mul(12), 'USDC') : null,
    }
    const address = addresses.find((candidate) => (payable.kind === 'checkout' ? candidate.checkoutSessionId : candidate.invoiceId) === payable.id)
    const sum = (address && received.find((row) => row.depositAddressId === address.id)?._sum.amount) || new Prisma.Decimal(0)
    const send = pulls.find((candidate) => candidate.invoiceId === payable.id)
    // Collected by the signer: its pull is under way or done, or it is awaited (a renewal of a payer
    // known, nothing paid yet). A failed pull, or an invoice paid by transfer, shows its deposit address.
    const awaited = !send && sum.isZero() && (payable.amountPaid ?? new Prisma.Decimal(0)).isZero()
    if (pull?.payer && provider?.signerAddress && provider.encryptedSignerKey && (send ? send.status !== 'failed' : awaited)) {
      return { rail: 'usdc_pull', chainId: provider.chainId, token: provider.token, payer: getAddress(pull.payer), amountReceived: formatAmount(payable.amountPaid ?? 0, 'USDC'), ...approval }
    }
    if (!address) return null
    return {
      rail: 'usdc',
      chainId: address.chainId,
      token: address.token,
      address: getAddress(address.address),
      amount: formatAmount(payable.amountDue, 'USDC'),
      amountReceived: formatAmount(sum, 'USDC'),
      ...approval,
    }
  })
}
