import { contextForAccount, inTransaction, type Database } from '../../domain/DomainContext'
import { logError } from '../../logging/log'
import { cancelPixRecurrences } from './cancelPixRecurrences'
import { collectPixAutomaticoInvoice } from './collectPixAutomaticoInvoice'
import { createPixCharge } from './createPixCharge'
import { createPixClient } from './createPixClient'
import { invoiceChargeExpiry } from './invoiceChargeExpiry'
import { reconcilePixAutomatico } from './reconcilePixAutomatico'
import { reconcilePixPayments } from './reconcilePixPayments'
import { removePixCharge } from './removePixCharge'

const batchSize = 50

/**
 * One pass of the background PIX work, for every account with a provider: reconcile received Pix (and Pix
 * Automático's recurrences and recurring charges) when the account's `reconcileSeconds` have passed,
 * give each open BRL invoice its charge (pix_auto: through Pix Automático when it can), cancel the
 * recurrences of canceled subscriptions, and remove the
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
        await reconcilePixAutomatico(context, client)
        await db.pixProvider.updateMany({ where: { accountId: account.id, OR: [{ reconciledThrough: null }, { reconciledThrough: { lt: end } }] }, data: { reconciledThrough: end } })
      } catch (error) {
        logError(error)
      } finally {
        client.close()
      }
    }
    // Invoices a live recurring charge (cobr) collects need nothing more from this pass.
    const collecting = await db.pixRecurringCharge.findMany({ where: { accountId: account.id, outcome: null }, select: { invoiceId: true } })
    const uncharged = await db.invoice.findMany({
      where: { accountId: account.id, status: 'open', currency: 'BRL', paymentMethod: { in: ['pix_manual', 'pix_auto'] }, total: { gt: 0 }, id: { notIn: collecting.map((charge) => charge.invoiceId) } },
      orderBy: { createdAt: 'asc' },
      take: batchSize,
    })
    const charged = new Set((await db.pixCharge.findMany({ where: { invoiceId: { in: uncharged.map((invoice) => invoice.id) } }, select: { invoiceId: true } })).map((charge) => charge.invoiceId))
    for (const invoice of uncharged.filter((candidate) => !charged.has(candidate.id))) {
      await inTransaction(context, async (transaction) => {
        // pix_auto: Pix Automático first (recurrence, recurring charge); an ordinary cob when it cannot.
        if (invoice.paymentMethod === 'pix_auto' && (await collectPixAutomaticoInvoice(transaction, provider, invoice))) return
        await createPixCharge(transaction, provider, {
          invoiceId: invoice.id,
          amount: invoice.amountDue,
          expiresAt: invoiceChargeExpiry(invoice, context.clock.now()),
          description: `Fatura ${invoice.id}`,
        })
      }).catch((error: unknown) => logError(error))
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
    await cancelPixRecurrences(context, provider).catch((error: unknown) => logError(error))
  }
}
