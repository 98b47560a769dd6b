import type { Clock, Database } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { createId } from '../domain/createId'
import type { Account } from '../generated/prisma/client'

const accountNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/

/** The account with this name, created (in `mode`) when it does not exist. Safe against concurrent callers. */
export async function ensureAccount(db: Database, clock: Clock, name: string, mode: 'test' | 'live'): Promise<Account> {
  if (!accountNamePattern.test(name)) {
    throw new DomainError('validation_error', 'account names are 1 to 63 letters, digits, "_", "-" or "."', { param: 'account' })
  }
  return db.account.upsert({
    where: { name },
    create: { id: createId('Account'), name, mode, createdAt: clock.now() },
    update: {},
  })
}
