import type { DomainContext } from '../domain/DomainContext'
import type { Currency, Decimal } from '../domain/money'
import { Prisma } from '../generated/prisma/client'
import { creditsPriceLateral } from './creditsPriceSql'

export interface CreditsPrice {
  id: string
  amount: Decimal
  currency: Currency
}

/** The price that charges credits for a meter (see creditsPriceSql), or null. */
export async function findCreditsPrice(context: DomainContext, meterId: string): Promise<CreditsPrice | null> {
  const rows = await context.db.$queryRaw<{ id: string; amount: Decimal; currency: Currency }[]>(Prisma.sql`
    SELECT credits_price.id, credits_price.amount, credits_price.currency::text AS currency
    FROM ${creditsPriceLateral(context.account.id, Prisma.sql`${meterId}`)} AS credits_price`)
  const row = rows[0]
  return row ? { id: row.id, amount: new Prisma.Decimal(row.amount), currency: row.currency } : null
}
