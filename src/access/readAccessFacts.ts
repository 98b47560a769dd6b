import type { Database } from '../domain/DomainContext'
import type { Currency } from '../domain/money'
import { Prisma } from '../generated/prisma/client'

export interface AccessFactsRequest {
  accountId: string
  customerId: string
  meterId: string
  /** Exact decimal text. */
  quantity: string
}

export interface AccessFacts {
  customerId: string | null
  meterId: string | null
  entitlementStatus: 'active' | 'past_due' | 'expired' | null
  currency: Currency | null
  cost: Prisma.Decimal | null
  balance: Prisma.Decimal | null
}

/**
 * Everything the access checks need, for many checks in one statement (billing_access_facts_batch,
 * in the migrations): existence of customer and meter, entitlement, credits price, cost, balance.
 */
export async function readAccessFacts(db: Database, requests: readonly AccessFactsRequest[]): Promise<{ value: AccessFacts }[]> {
  const payload = JSON.stringify(requests.map((request, ord) => ({ ...request, ord })))
  const rows = await db.$queryRaw<(AccessFacts & { ord: number })[]>(Prisma.sql`SELECT * FROM billing_access_facts_batch(${payload}::jsonb)`)
  return rows.map(({ ord: _ord, ...facts }) => ({ value: facts }))
}
