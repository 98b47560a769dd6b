import type { DomainContext } from '../domain/DomainContext'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Currency } from '../domain/money'
import type { CreditLedgerEntry } from '../generated/prisma/client'

export async function listCreditLedger(
  context: DomainContext,
  filter: { customerId: string; currency?: Currency | null },
  page: PageRequest,
): Promise<Page<CreditLedgerEntry>> {
  return readPage(page, (take) =>
    context.db.creditLedgerEntry.findMany({
      where: {
        accountId: context.account.id,
        customerId: filter.customerId,
        ...(filter.currency ? { currency: filter.currency } : {}),
        ...afterPosition(page.after),
      },
      orderBy: newestFirst,
      take,
    }),
  )
}
