import type { DatabaseClient } from '../../database/createDatabaseClient'
import { effectiveStatus } from '../../checkout/checkoutRules'
import { contextForAccount, runInTransaction, type Transaction } from '../../domain/DomainContext'
import { createId } from '../../domain/createId'
import { recordEvent } from '../../events/recordEvent'
import { Prisma } from '../../generated/prisma/client'

/**
 * Money that reached a deposit address when its payable was no longer payable (an extra or late
 * transfer to a paid payable, a transfer to an expired or canceled session or a voided invoice, the
 * excess over what was due) becomes a succeeded transaction of its own, so that it is refundable
 * through POST /v1/transactions/{id}/refund like every payment (CONTRACT §9: the excess is
 * refundable), one per sender, so that its refund goes back to whoever sent it. Once a payable is not
 * payable, a transfer no transaction records is wholly unapplied; only the transfer that completed a
 * payment carries part of it, which the settling caller passes as `completed` (the payment and the
 * part of the unrecorded transfers it took). The deposit row is locked, so two processes record it
 * once. Transfers to a payable still payable only add up towards it (settleUsdcDeposit). Runs inside
 * the caller's transaction.
 */
export async function recordUnappliedUsdcTransfers(db: Transaction, depositAddressId: string, completed?: { transactionId: string; amount: Prisma.Decimal }): Promise<boolean> {
  await db.$queryRaw`SELECT id FROM "UsdcDepositAddress" WHERE id = ${depositAddressId} FOR UPDATE`
  const deposit = await db.usdcDepositAddress.findUniqueOrThrow({ where: { id: depositAddressId } })
  // A transfer of nothing (address-poisoning spam sends those) is recorded and never needs refunding.
  const unapplied = await db.usdcTransfer.findMany({
    where: { depositAddressId, transactionId: null, amount: { gt: 0 } },
    orderBy: [{ blockNumber: 'asc' }, { transactionHash: 'asc' }, { logPosition: 'asc' }],
  })
  if (unapplied.length === 0) return false
  const account = await db.account.findUniqueOrThrow({ where: { id: deposit.accountId } })
  const context = contextForAccount(db, account)
  const payable = deposit.checkoutSessionId
    ? await db.checkoutSession.findUniqueOrThrow({ where: { id: deposit.checkoutSessionId } }).then((session) => ({
        customerId: session.customerId,
        invoiceId: null,
        stillPayable: effectiveStatus(session, context.clock.now()) === 'open',
      }))
    : await db.invoice.findUniqueOrThrow({ where: { id: deposit.invoiceId! } }).then((invoice) => ({ customerId: invoice.customerId, invoiceId: invoice.id, stillPayable: invoice.status === 'open' }))
  if (payable.stillPayable) return false
  // One transaction per sender, so that each refund goes back to whoever sent that money. The part of
  // the due that completed the payment came with the earliest unapplied transfer (the later ones were
  // never needed), so it is taken from that sender's share.
  const bySender = new Map<string, { ids: string[]; amount: Prisma.Decimal }>()
  for (const transfer of unapplied) {
    const sender = transfer.fromAddress.toLowerCase()
    const share = bySender.get(sender) ?? { ids: [], amount: new Prisma.Decimal(0) }
    share.ids.push(transfer.id)
    share.amount = share.amount.plus(transfer.amount)
    bySender.set(sender, share)
  }
  const completingShare = bySender.get(unapplied[0]!.fromAddress.toLowerCase())!
  completingShare.amount = completingShare.amount.minus(completed?.amount ?? 0)
  let recorded = false
  for (const { ids, amount } of bySender.values()) {
    if (amount.lessThanOrEqualTo(0)) {
      // Exactly what completed the payment: that payment records them.
      if (completed) await db.usdcTransfer.updateMany({ where: { id: { in: ids } }, data: { transactionId: completed.transactionId } })
      continue
    }
    const unappliedTransaction = await db.transaction.create({
      data: { id: createId('Transaction'), accountId: account.id, customerId: payable.customerId, invoiceId: payable.invoiceId, status: 'succeeded', amount, currency: 'USDC', createdAt: context.clock.now() },
    })
    await db.usdcTransfer.updateMany({ where: { id: { in: ids } }, data: { transactionId: unappliedTransaction.id } })
    await recordEvent(context, 'transaction.succeeded', unappliedTransaction)
    recorded = true
  }
  return recorded
}

/**
 * The watcher's sweep for money no new transfer brings to recordUnappliedUsdcTransfers: transfers that
 * added up towards a payable that has since stopped being payable (a session that expired partly paid,
 * an invoice voided). Only such deposits are read (on the account's clock), so partly paid payables
 * still open cost nothing here.
 */
export async function recordAllUnappliedUsdcTransfers(prisma: DatabaseClient, chainId: number, token: string, limit = 100): Promise<number> {
  const now = new Date()
  const waiting = await prisma.$queryRaw<{ depositAddressId: string }[]>`
    SELECT DISTINCT t."depositAddressId"
    FROM "UsdcTransfer" t
    JOIN "UsdcDepositAddress" d ON d.id = t."depositAddressId"
    JOIN "Account" a ON a.id = d."accountId"
    LEFT JOIN "CheckoutSession" s ON s.id = d."checkoutSessionId"
    LEFT JOIN "Invoice" i ON i.id = d."invoiceId"
    WHERE t."transactionId" IS NULL AND t.amount > 0 AND t."chainId" = ${chainId} AND t.token = ${token}
      AND (s.status <> 'open' OR s."expiresAt" <= ${now}::timestamptz + a."clockOffsetMs" * interval '1 millisecond' OR i.status <> 'open')
    LIMIT ${limit}`
  let recorded = 0
  for (const { depositAddressId } of waiting) {
    if (await runInTransaction(prisma, (db) => recordUnappliedUsdcTransfers(db, depositAddressId))) recorded += 1
  }
  return recorded
}
