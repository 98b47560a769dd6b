import { contextForAccount, inTransaction, type Database } from '../../domain/DomainContext'
import { logError } from '../../http/log'
import { createPixCharge } from './createPixCharge'
import { createPixClient } from './createPixClient'
import { reconcilePixPayments } from './reconcilePixPayments'
import { removePixCharge } from './removePixCharge'

const batchSize = 50

/**
 * One pass of the background PIX work, for every account with a provider: reconcile received Pix when
 * the account's `reconcileSeconds` have passed, give each open BRL invoice its charge, and remove the
 * charges of sessions that expired. Each step of each account fails alone (logged, retried on the next
 * pass): a PSP that is down delays its own account's work and nothing else. Safe in several processes
 * at once: everything it writes is keyed (endToEndId, txid) or conditional.
 */
export async function runPixWork(db: Database, options: { force?: boolean } = {}): Promise<void> {
  const providers = await db.pixProvider.findMany({ include: { account: true } })
  for (const { account, ...provider } of providers) {
    const context = contextForAccount(db, account)
    const now = new Date()
    const due = options.force || !provider.reconciledThrough || provider.reconciledThrough.getTime() + provider.reconcileSeconds * 1000 <= now.getTime()
    if (due) {
      const client = createPixClient(provider)
      try {
        const end = await reconcilePixPayments(context, provider, client)
        await db.pixProvider.updateMany({ where: { accountId: account.id, OR: [{ reconciledThrough: null }, { reconciledThrough: { lt: end } }] }, data: { reconciledThrough: end } })
      } catch (error) {
        logError(error)
      } finally {
        client.close()
      }
    }
    const uncharged = await db.invoice.findMany({
      where: { accountId: account.id, status: 'open', currency: 'BRL', paymentMethod: { in: ['pix_manual', 'pix_auto'] }, total: { gt: 0 } },
      orderBy: { createdAt: 'asc' },
      take: batchSize,
    })
    const charged = new Set((await db.pixCharge.findMany({ where: { invoiceId: { in: uncharged.map((invoice) => invoice.id) } }, select: { invoiceId: true } })).map((charge) => charge.invoiceId))
    for (const invoice of uncharged.filter((candidate) => !charged.has(candidate.id))) {
      await inTransaction(context, (transaction) =>
        createPixCharge(transaction, provider, {
          invoiceId: invoice.id,
          amount: invoice.amountDue,
          // An open invoice stays payable after its due date (it only turns the subscription past_due).
          expiresAt: new Date(Math.max(invoice.dueDate.getTime(), context.clock.now().getTime()) + 30 * 86_400_000),
          description: `Fatura ${invoice.id}`,
        }),
      ).catch((error: unknown) => logError(error))
    }
    const stale = await db.pixCharge.findMany({
      where: {
        accountId: account.id,
        status: 'active',
        checkoutSessionId: { not: null },
        OR: [{ expiresAt: { lte: context.clock.now() } }],
      },
      take: batchSize,
    })
    for (const charge of stale) {
      await inTransaction(context, (transaction) => removePixCharge(transaction, provider, charge)).catch((error: unknown) => logError(error))
    }
  }
}
