import { getCustomer } from '../customers/getCustomer'
import type { DomainContext } from '../domain/DomainContext'
import { zero, type Currency, type Decimal } from '../domain/money'

export interface CreditBalanceView {
  customerId: string
  currency: Currency
  balance: Decimal
  /** When the balance last moved; null when it never has. */
  updatedAt: Date | null
}

/** The balance is kept by the ledger trigger; it always equals the sum of the customer's ledger in that currency. */
export async function getCreditBalance(context: DomainContext, customerId: string, currency: Currency): Promise<CreditBalanceView> {
  await getCustomer(context, customerId)
  const row = await context.db.creditBalance.findUnique({ where: { customerId_currency: { customerId, currency } } })
  return { customerId, currency, balance: row?.balance ?? zero, updatedAt: row?.updatedAt ?? null }
}
