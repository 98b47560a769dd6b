import type { Database } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import type { Account, PaymentMethod } from '../generated/prisma/client'

const rails: readonly PaymentMethod[] = ['pix_manual', 'pix_auto', 'usdc_invoice', 'usdc_pull']

/** Which rails new subscriptions of the account may use (existing ones keep theirs). */
export async function setEnabledRails(db: Database, accountId: string, enabled: readonly string[]): Promise<Account> {
  const unknown = enabled.find((rail) => !rails.includes(rail as PaymentMethod))
  if (unknown !== undefined) throw new DomainError('validation_error', `Unknown payment rail ${unknown}`, { param: 'rails' })
  return db.account.update({ where: { id: accountId }, data: { enabledRails: [...new Set(enabled as PaymentMethod[])] } })
}
