import { getAddress } from 'viem'
import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { createId } from '../../domain/createId'
import type { Decimal } from '../../domain/money'
import type { Transaction } from '../../generated/prisma/client'

/**
 * A USDC refund (CONTRACT §9): when the transaction's money came on chain (a confirmed pull, or
 * transfers to a deposit address that it records: the payment they completed, or money that arrived
 * when nothing was payable there), records the Refund and the
 * send that carries it out, `pending`, in the caller's transaction. Nothing touches the chain here:
 * the watcher loop signs, stores and broadcasts it after this commits (signUsdcSends), and the refund
 * counts once its receipt succeeded at the account's depth (confirmUsdcSends). The money goes back to
 * the payer of a pull, or to the sender of the first transfer the transaction records (for a payment
 * that records none, the first sender to its payable's deposit address). False when no USDC payment is
 * behind the transaction.
 */
export async function requestUsdcRefund(context: DomainContext, paid: Transaction, amount: Decimal): Promise<boolean> {
  const { db, account } = context
  if (paid.currency !== 'USDC') return false
  const pull = await db.usdcSend.findFirst({ where: { accountId: account.id, kind: 'pull', transactionId: paid.id, status: 'succeeded' } })
  let recipient = pull?.fromAddress ?? undefined
  const order = [{ blockNumber: 'asc' as const }, { transactionHash: 'asc' as const }, { logPosition: 'asc' as const }]
  if (!recipient) {
    const first = await db.usdcTransfer.findFirst({ where: { accountId: account.id, transactionId: paid.id }, orderBy: order })
    recipient = first?.fromAddress
  }
  if (!recipient && (paid.checkoutId || paid.invoiceId)) {
    // A payment completed by one transfer that also carried an excess records no transfer of its own
    // (the transfer is recorded by the excess): its money came from the payable's deposit address.
    const deposit = await db.usdcDepositAddress.findFirst({ where: paid.checkoutId ? { checkoutSessionId: paid.checkoutId } : { invoiceId: paid.invoiceId } })
    const first = deposit ? await db.usdcTransfer.findFirst({ where: { depositAddressId: deposit.id, amount: { gt: 0 } }, orderBy: order }) : null
    recipient = first?.fromAddress
  }
  if (!recipient) return false
  const provider = await db.usdcProvider.findUnique({ where: { accountId: account.id } })
  if (!provider?.signerAddress || !provider.encryptedSignerKey) {
    throw new DomainError('invalid_state', 'This account\'s USDC provider has no signer key: configure one to refund on chain', { param: 'id' })
  }
  const refundId = createId('Refund')
  await db.refund.create({
    data: { id: refundId, accountId: account.id, transactionId: paid.id, rail: 'usdc', providerReference: refundId, amount, status: 'pending', createdAt: context.clock.now() },
  })
  await db.usdcSend.create({
    data: {
      id: createId('UsdcSend'),
      accountId: account.id,
      kind: 'refund',
      refundId,
      chainId: provider.chainId,
      token: provider.token,
      signerAddress: getAddress(provider.signerAddress),
      toAddress: getAddress(recipient),
      amount,
      status: 'pending',
    },
  })
  return true
}
