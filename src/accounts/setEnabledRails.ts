import { runInTransaction, type DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import type { Account, PaymentMethod } from '../generated/prisma/client'
import { notifyApiKeysChanged } from './notifyApiKeysChanged'

const rails: readonly PaymentMethod[] = ['pix_manual', 'pix_auto', 'usdc_invoice', 'usdc_pull']

/**
 * Which rails new subscriptions of the account may use (existing ones keep theirs). The cached keys
 * carry their account, so the change and the NOTIFY that empties every process's key cache are one
 * transaction: the notification is delivered when, and only if, the change commits.
 */
export async function setEnabledRails(context: Pick<DomainContext, 'db'>, accountId: string, enabled: readonly string[]): Promise<Account> {
  const unknown = enabled.find((rail) => !rails.includes(rail as PaymentMethod))
  if (unknown !== undefined) throw new DomainError('validation_error', `Unknown payment rail ${unknown}`, { param: 'rails' })
  return runInTransaction(context.db, async (db) => {
    const account = await db.account.update({ where: { id: accountId }, data: { enabledRails: [...new Set(enabled as PaymentMethod[])] } })
    await notifyApiKeysChanged(db)
    return account
  })
}
