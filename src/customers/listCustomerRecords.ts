import type { DomainContext } from '../domain/DomainContext'
import type { ListPosition, Page, PageRequest } from '../domain/Page'
import { Prisma } from '../generated/prisma/client'

/** The per-customer lists a dashboard walks to from a customer, and the table each reads. */
export const customerRecordTables = {
  usageEvents: Prisma.raw('"UsageEvent"'),
  transactions: Prisma.raw('"Transaction"'),
  creditLedger: Prisma.raw('"CreditLedgerEntry"'),
  subscriptions: Prisma.raw('"Subscription"'),
  entitlements: Prisma.raw('"Entitlement"'),
  invoices: Prisma.raw('"Invoice"'),
} as const

export type CustomerRecordList = keyof typeof customerRecordTables

/**
 * One page of one list for each of many customers, in ONE query (a window per customer), so that a
 * dashboard listing 100 customers with their latest events costs one query per list, not one per
 * customer. Same order and paging rules as every other list (newest first, `after` a position).
 */
export async function listCustomerRecords<T extends ListPosition & { customerId: string }>(
  context: DomainContext,
  list: CustomerRecordList,
  customerIds: readonly string[],
  page: PageRequest,
): Promise<Map<string, Page<T>>> {
  const after = page.after
    ? Prisma.sql`AND (record."createdAt" < ${page.after.createdAt} OR (record."createdAt" = ${page.after.createdAt} AND record.id < ${page.after.id}))`
    : Prisma.empty
  const rows = await context.db.$queryRaw<(T & { position: bigint })[]>(Prisma.sql`
    SELECT * FROM (
      SELECT record.*, row_number() OVER (PARTITION BY record."customerId" ORDER BY record."createdAt" DESC, record.id DESC) AS position
      FROM ${customerRecordTables[list]} record
      WHERE record."accountId" = ${context.account.id} AND record."customerId" = ANY(${[...customerIds]}) ${after}
    ) ranked
    WHERE position <= ${page.limit + 1}
    ORDER BY "customerId", position`)
  const pages = new Map<string, Page<T>>(customerIds.map((id) => [id, { items: [], hasMore: false }]))
  for (const { position, ...row } of rows) {
    const target = pages.get(row.customerId)!
    if (Number(position) > page.limit) target.hasMore = true
    else target.items.push(row as unknown as T)
  }
  return pages
}
