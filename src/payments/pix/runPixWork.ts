import { contextForAccount, inTransaction, type Database, type DomainContext } from '../../domain/DomainContext'
import type { Account, PixProvider } from '../../generated/prisma/client'
import { logError } from '../../logging/log'
import { attemptPixWork, isPspUnreachable } from './attemptPixWork'
import { cancelPixRecurrences } from './cancelPixRecurrences'
import { collectPixAutomaticoInvoice } from './collectPixAutomaticoInvoice'
import { createPixCharge } from './createPixCharge'
import { createPixClient } from './createPixClient'
import { invoiceChargeExpiry } from './invoiceChargeExpiry'
import { reconcilePixAutomatico } from './reconcilePixAutomatico'
import { reconcilePixPayments } from './reconcilePixPayments'
import { removePixCharge } from './removePixCharge'
import { invoiceChargeRenewalLeadMilliseconds, renewPixCharge } from './renewPixCharge'

const batchSize = 50

export interface PixWorkOptions {
  /** Reconcile now, whatever the account's `reconcileSeconds` say. */
  force?: boolean
  /** `GET /pix` page size of reconciliation (the standard's maximum, 1000, unless a test asks for less). */
  pageSize?: number
}

/** Accounts worked on at once: one account's PSP that hangs holds one lane, not the whole pass. */
const accountsAtOnce = 4

/**
 * One pass of the background PIX work, for every account with a provider: reconcile received Pix (and Pix
 * Automático's recurrences and recurring charges) when the account's `reconcileSeconds` have passed,
 * give each open BRL invoice its charge (pix_auto: through Pix Automático when it can), renew the
 * charges of open invoices before they expire, cancel the recurrences of canceled subscriptions, and
 * remove the charges of sessions that expired. Each item of a step fails alone (attemptPixWork: logged,
 * retried on a later pass after the items waiting longer), and each step too, so a PSP that refuses one
 * item delays that item and nothing else. A PSP that cannot be reached (down, or hanging until the
 * client's timeout) ends its account's pass at the first call that finds it so: one timeout per pass,
 * not one per item. Accounts run a few at a time, so neither holds up the others. Safe in several
 * processes at once: everything it writes is keyed (endToEndId, txid) or conditional.
 */
export async function runPixWork(db: Database, options: PixWorkOptions = {}): Promise<void> {
  const providers = await db.pixProvider.findMany({ include: { account: true } })
  let next = 0
  const lane = async () => {
    while (next < providers.length) await runAccountPixWork(db, providers[next++]!, options)
  }
  await Promise.all(Array.from({ length: Math.min(accountsAtOnce, providers.length) }, lane))
}

async function runAccountPixWork(db: Database, { account, ...provider }: PixProvider & { account: Account }, options: PixWorkOptions): Promise<void> {
  const context = contextForAccount(db, account)
  const now = new Date()
  const due = options.force || !provider.reconciledThrough || provider.reconciledThrough.getTime() + provider.reconcileSeconds * 1000 <= now.getTime()
  try {
    if (due) await reconcile(context, provider, options.pageSize)
    for (const step of [chargeInvoices, renewInvoiceCharges, removeExpiredSessionCharges, cancelPixRecurrences]) {
      await step(context, provider).catch(unlessUnreachable)
    }
  } catch (error) {
    // The PSP cannot be reached: the rest of this account's work waits for the next pass.
    logError(error)
  }
}

/** Logs a step's failure and goes on, unless the PSP cannot be reached (then the account's pass ends). */
function unlessUnreachable(error: unknown): void {
  if (isPspUnreachable(error)) throw error
  logError(error)
}

async function reconcile(context: DomainContext, provider: PixProvider, pageSize: number | undefined): Promise<void> {
  const client = createPixClient(provider)
  try {
    try {
      const through = await reconcilePixPayments(context, provider, client, pageSize === undefined ? {} : { pageSize })
      await context.db.pixProvider.updateMany({ where: { accountId: provider.accountId, OR: [{ reconciledThrough: null }, { reconciledThrough: { lt: through } }] }, data: { reconciledThrough: through } })
    } catch (error) {
      unlessUnreachable(error)
    }
    await reconcilePixAutomatico(context, client).catch(unlessUnreachable)
  } finally {
    client.close()
  }
}

/** Open BRL invoices with no charge yet; a live recurring charge (cobr) collects its invoice already. */
async function chargeInvoices(context: DomainContext, provider: PixProvider): Promise<void> {
  const accountId = provider.accountId
  const rows = await context.db.$queryRaw<{ id: string }[]>`
    SELECT i.id FROM "Invoice" i
    LEFT JOIN "PixWorkAttempt" a ON a.job = 'charge_invoice' AND a.subject = i.id
    WHERE i."accountId" = ${accountId} AND i.status = 'open' AND i.currency = 'BRL' AND i."paymentMethod" IN ('pix_manual', 'pix_auto') AND i.total > 0
      AND NOT EXISTS (SELECT 1 FROM "PixCharge" c WHERE c."invoiceId" = i.id)
      AND NOT EXISTS (SELECT 1 FROM "PixRecurringCharge" r WHERE r."invoiceId" = i.id AND r.outcome IS NULL)
    ORDER BY a."attemptedAt" ASC NULLS FIRST, i."createdAt" ASC
    LIMIT ${batchSize}`
  for (const { id } of rows) {
    await attemptPixWork(context.db, { accountId, job: 'charge_invoice', subject: id }, () =>
      inTransaction(context, async (transaction) => {
        const invoice = await transaction.db.invoice.findUniqueOrThrow({ where: { id } })
        if (invoice.status !== 'open') return true
        // pix_auto: Pix Automático first (recurrence, recurring charge); an ordinary cob when it cannot.
        if (invoice.paymentMethod === 'pix_auto' && (await collectPixAutomaticoInvoice(transaction, provider, invoice))) return true
        await createPixCharge(transaction, provider, {
          invoiceId: invoice.id,
          amount: invoice.amountDue,
          expiresAt: invoiceChargeExpiry(invoice, context.clock.now()),
          description: `Fatura ${invoice.id}`,
        })
        return true
      }),
    )
  }
}

/** The cobs of open invoices that end within the renewal lead (or have ended), least recently tried first. */
async function renewInvoiceCharges(context: DomainContext, provider: PixProvider): Promise<void> {
  const accountId = provider.accountId
  const horizon = new Date(context.clock.now().getTime() + invoiceChargeRenewalLeadMilliseconds)
  const rows = await context.db.$queryRaw<{ txid: string }[]>`
    SELECT c.txid FROM "PixCharge" c
    JOIN "Invoice" i ON i.id = c."invoiceId"
    LEFT JOIN "PixWorkAttempt" a ON a.job = 'renew_charge' AND a.subject = c.txid
    WHERE c."accountId" = ${accountId} AND c.status = 'active' AND i.status = 'open' AND c."expiresAt" <= ${horizon}
    ORDER BY a."attemptedAt" ASC NULLS FIRST, c."expiresAt" ASC
    LIMIT ${batchSize}`
  for (const { txid } of rows) {
    await attemptPixWork(context.db, { accountId, job: 'renew_charge', subject: txid }, async () => {
      const charge = await context.db.pixCharge.findUniqueOrThrow({ where: { txid } })
      const invoice = await context.db.invoice.findUniqueOrThrow({ where: { id: charge.invoiceId! } })
      // A cob already paid is not renewed; it stays at the back of the queue until it is settled.
      return renewPixCharge(context, provider, charge, invoice)
    })
  }
}

/** The still-active charges of sessions that expired, least recently tried first. */
async function removeExpiredSessionCharges(context: DomainContext, provider: PixProvider): Promise<void> {
  const accountId = provider.accountId
  const rows = await context.db.$queryRaw<{ txid: string }[]>`
    SELECT c.txid FROM "PixCharge" c
    LEFT JOIN "PixWorkAttempt" a ON a.job = 'remove_charge' AND a.subject = c.txid
    WHERE c."accountId" = ${accountId} AND c.status = 'active' AND c."checkoutSessionId" IS NOT NULL AND c."expiresAt" <= ${context.clock.now()}
    ORDER BY a."attemptedAt" ASC NULLS FIRST, c."expiresAt" ASC
    LIMIT ${batchSize}`
  for (const { txid } of rows) {
    await attemptPixWork(context.db, { accountId, job: 'remove_charge', subject: txid }, () =>
      inTransaction(context, async (transaction) => {
        const charge = await transaction.db.pixCharge.findUniqueOrThrow({ where: { txid } })
        await removePixCharge(transaction, provider, charge)
        return true
      }),
    )
  }
}
