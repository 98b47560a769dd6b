import type { DomainContext } from '../domain/DomainContext'
import type { CreditBalance } from '../generated/prisma/client'

/** The balances (one per currency that ever moved) of many customers, in one query. */
export async function listCreditBalances(context: DomainContext, customerIds: readonly string[]): Promise<Map<string, CreditBalance[]>> {
  const rows = await context.db.creditBalance.findMany({
    where: { accountId: context.account.id, customerId: { in: [...customerIds] } },
    orderBy: [{ customerId: 'asc' }, { currency: 'asc' }],
  })
  const byCustomer = new Map<string, CreditBalance[]>(customerIds.map((id) => [id, []]))
  for (const row of rows) byCustomer.get(row.customerId)?.push(row)
  return byCustomer
}
