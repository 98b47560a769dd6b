import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { isUniqueViolation } from '../domain/isUniqueViolation'
import { recordEvent } from '../events/recordEvent'
import { validateMetadata, validateText } from '../domain/validateMetadata'
import type { Customer } from '../generated/prisma/client'
import { customerLimits } from './customerRules'
import { validateTaxId } from './validateTaxId'

export interface CreateCustomerInput {
  externalId?: string | null
  name?: string | null
  email?: string | null
  taxId?: string | null
  metadata?: Record<string, unknown> | null
}

export async function createCustomer(context: DomainContext, input: CreateCustomerInput): Promise<Customer> {
  const externalId = input.externalId == null ? null : validateText(input.externalId, 'externalId', customerLimits.externalId)
  const name = input.name == null ? null : validateText(input.name, 'name', customerLimits.name)
  const email = input.email == null ? null : validateText(input.email, 'email', customerLimits.email)
  const taxId = input.taxId == null ? null : validateTaxId(input.taxId)
  const metadata = input.metadata == null ? undefined : validateMetadata(input.metadata)
  return inTransaction(context, async (transaction) => {
    const { db, account, clock } = transaction
    try {
      const customer = await db.customer.create({
        data: { id: createId('Customer'), accountId: account.id, externalId, name, email, taxId, metadata: metadata as object, createdAt: clock.now() },
      })
      await recordEvent(transaction, 'customer.created', customer)
      return customer
    } catch (error) {
      // The unique index decides, not a prior read: two concurrent creates cannot both pass.
      if (isUniqueViolation(error, 'externalId')) {
        throw new DomainError('externalId_conflict', 'A customer with this externalId already exists', { param: 'externalId' })
      }
      throw error
    }
  })
}
