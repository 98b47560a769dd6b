import type { Database } from '../domain/DomainContext'

export interface ApiKeyListing {
  id: string
  prefix: string
  account: string
  mode: 'test' | 'live'
  scopes: string[]
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
}

export async function listApiKeys(db: Database, accountName?: string): Promise<ApiKeyListing[]> {
  const keys = await db.apiKey.findMany({
    where: accountName === undefined ? {} : { account: { name: accountName } },
    include: { account: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  })
  return keys.map((key) => ({
    id: key.id,
    prefix: key.prefix,
    account: key.account.name,
    mode: key.account.mode,
    scopes: key.scopes,
    createdAt: key.createdAt,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
  }))
}
