import type { DomainContext } from '../domain/DomainContext'
import type { Currency, Decimal } from '../domain/money'
import { Prisma } from '../generated/prisma/client'

export interface CreditsPrice {
  id: string
  amount: Decimal
  currency: Currency
}

/** The price that charges credits for a meter (the rule is billing_credits_price, in the migrations), or null. */
export async function findCreditsPrice(context: DomainContext, meterId: string): Promise<CreditsPrice | null> {
  const rows = await context.db.$queryRaw<{ id: string; amount: Decimal; currency: Currency }[]>(
    Prisma.sql`SELECT id, amount, currency::text AS currency FROM billing_credits_price(${context.account.id}, ${meterId})`,
  )
  const row = rows[0]
  return row ? { id: row.id, amount: new Prisma.Decimal(row.amount), currency: row.currency } : null
}
