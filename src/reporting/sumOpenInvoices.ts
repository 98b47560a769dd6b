import type { DomainContext } from '../domain/DomainContext'
import { formatAmount, type Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'

export interface OpenInvoiceTotals {
  open: string
  openCount: number
  overdue: string
  overdueCount: number
}

/** Amounts due on open invoices, and on those of them past their due date (by the account's clock). */
export async function sumOpenInvoices(context: DomainContext, currency: Currency): Promise<OpenInvoiceTotals> {
  const now = context.clock.now()
  const [row] = await context.db.$queryRaw<{ open: string; openCount: number; overdue: string; overdueCount: number }[]>(Prisma.sql`
    SELECT coalesce(sum("amountDue"), 0)::text AS open, count(*)::int AS "openCount",
           coalesce(sum("amountDue") FILTER (WHERE "dueDate" < ${now}), 0)::text AS overdue,
           (count(*) FILTER (WHERE "dueDate" < ${now}))::int AS "overdueCount"
    FROM "Invoice" WHERE "accountId" = ${context.account.id} AND currency = ${currency}::"Currency" AND status = 'open'`)
  return {
    open: formatAmount(row?.open ?? 0, currency),
    openCount: row?.openCount ?? 0,
    overdue: formatAmount(row?.overdue ?? 0, currency),
    overdueCount: row?.overdueCount ?? 0,
  }
}
