import type { DomainContext } from '../domain/DomainContext'
import { formatAmount, type Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'

export interface CreditPosition {
  /** What the account owes its customers: the sum of positive balances. */
  liabilities: string
  /** What customers owe: the sum of negative balances (a negative number, or zero). */
  debts: string
}

export async function sumCreditBalances(context: DomainContext, currency: Currency): Promise<CreditPosition> {
  const [row] = await context.db.$queryRaw<{ liabilities: string; debts: string }[]>(Prisma.sql`
    SELECT coalesce(sum(balance) FILTER (WHERE balance > 0), 0)::text AS liabilities,
           coalesce(sum(balance) FILTER (WHERE balance < 0), 0)::text AS debts
    FROM "CreditBalance" WHERE "accountId" = ${context.account.id} AND currency = ${currency}::"Currency"`)
  return { liabilities: formatAmount(row?.liabilities ?? 0, currency), debts: formatAmount(row?.debts ?? 0, currency) }
}
