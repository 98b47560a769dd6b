import type { Database, DomainContext } from './DomainContext'

// The records that point at an object (`Subscription.invoices`, `Invoice.transactions`,
// `Subscription.entitlement`), many parents at once: one query per kind, within the caller's account,
// newest first.

const finders = {
  invoicesOfSubscriptions: (db: Database, accountId: string, ids: string[]) =>
    db.invoice.findMany({ where: { accountId, subscriptionId: { in: ids } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  transactionsOfInvoices: (db: Database, accountId: string, ids: string[]) =>
    db.transaction.findMany({ where: { accountId, invoiceId: { in: ids } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  entitlementsOfSubscriptions: (db: Database, accountId: string, ids: string[]) =>
    db.entitlement.findMany({ where: { accountId, subscriptionId: { in: ids } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
}

const parentOf = {
  invoicesOfSubscriptions: (record: { subscriptionId: string }) => record.subscriptionId,
  transactionsOfInvoices: (record: { invoiceId: string | null }) => record.invoiceId,
  entitlementsOfSubscriptions: (record: { subscriptionId: string | null }) => record.subscriptionId,
} as const

export type ChildRecordKind = keyof typeof finders
export type ChildRecord<Kind extends ChildRecordKind> = Awaited<ReturnType<(typeof finders)[Kind]>>[number]

export async function findRecordsByParents<Kind extends ChildRecordKind>(context: DomainContext, kind: Kind, parentIds: readonly string[]): Promise<Map<string, ChildRecord<Kind>[]>> {
  const records = (await finders[kind](context.db, context.account.id, [...new Set(parentIds)])) as ChildRecord<Kind>[]
  const byParent = new Map<string, ChildRecord<Kind>[]>(parentIds.map((id) => [id, []]))
  const parent = parentOf[kind] as (record: ChildRecord<Kind>) => string | null
  for (const record of records) byParent.get(parent(record) ?? '')?.push(record)
  return byParent
}
