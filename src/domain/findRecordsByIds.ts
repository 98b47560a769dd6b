import type { Database, DomainContext } from './DomainContext'

// The records an object links to (`Subscription.customer`, …), many parents' links at once: one query
// per kind of record, always within the caller's account (an id of another account is not found).

const finders = {
  customer: (db: Database, accountId: string, ids: string[]) => db.customer.findMany({ where: { accountId, id: { in: ids } } }),
  product: (db: Database, accountId: string, ids: string[]) => db.product.findMany({ where: { accountId, id: { in: ids } } }),
  price: (db: Database, accountId: string, ids: string[]) => db.price.findMany({ where: { accountId, id: { in: ids } } }),
  meter: (db: Database, accountId: string, ids: string[]) => db.meter.findMany({ where: { accountId, id: { in: ids } } }),
  subscription: (db: Database, accountId: string, ids: string[]) => db.subscription.findMany({ where: { accountId, id: { in: ids } } }),
  invoice: (db: Database, accountId: string, ids: string[]) => db.invoice.findMany({ where: { accountId, id: { in: ids } } }),
  checkoutSession: (db: Database, accountId: string, ids: string[]) => db.checkoutSession.findMany({ where: { accountId, id: { in: ids } } }),
  usageEvent: (db: Database, accountId: string, ids: string[]) => db.usageEvent.findMany({ where: { accountId, id: { in: ids } } }),
  entitlement: (db: Database, accountId: string, ids: string[]) => db.entitlement.findMany({ where: { accountId, id: { in: ids } } }),
  transaction: (db: Database, accountId: string, ids: string[]) => db.transaction.findMany({ where: { accountId, id: { in: ids } } }),
  creditLedgerEntry: (db: Database, accountId: string, ids: string[]) => db.creditLedgerEntry.findMany({ where: { accountId, id: { in: ids } } }),
  event: (db: Database, accountId: string, ids: string[]) => db.event.findMany({ where: { accountId, id: { in: ids } } }),
  webhookEndpoint: (db: Database, accountId: string, ids: string[]) => db.webhookEndpoint.findMany({ where: { accountId, id: { in: ids } } }),
}

/** Whether records of this kind can be found by id (the Relay node types). */
export function isLinkedRecordKind(kind: string): kind is LinkedRecordKind {
  return Object.hasOwn(finders, kind)
}

export type LinkedRecordKind = keyof typeof finders
export type LinkedRecord<Kind extends LinkedRecordKind> = Awaited<ReturnType<(typeof finders)[Kind]>>[number]

export async function findRecordsByIds<Kind extends LinkedRecordKind>(context: DomainContext, kind: Kind, ids: readonly string[]): Promise<Map<string, LinkedRecord<Kind>>> {
  const records = (await finders[kind](context.db, context.account.id, [...new Set(ids)])) as LinkedRecord<Kind>[]
  return new Map(records.map((record) => [record.id, record]))
}
