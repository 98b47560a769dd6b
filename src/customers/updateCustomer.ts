import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { Prisma } from '../generated/prisma/client'
import { validateMetadata, validateText } from '../domain/validateMetadata'
import type { Customer } from '../generated/prisma/client'
import { customerLimits } from './customerRules'
import { validateTaxId } from './validateTaxId'
import { getCustomer } from './getCustomer'
import { recordEvent } from '../events/recordEvent'

/** Absent fields stay as they are; null clears; metadata is replaced whole (CONTRACT §5). */
export interface UpdateCustomerInput {
  name?: string | null
  email?: string | null
  taxId?: string | null
  metadata?: Record<string, unknown> | null
}

export async function updateCustomer(context: DomainContext, customerId: string, input: UpdateCustomerInput): Promise<Customer> {
  const data: Prisma.CustomerUpdateInput = {}
  if (input.name !== undefined) data.name = input.name === null ? null : validateText(input.name, 'name', customerLimits.name)
  if (input.email !== undefined) data.email = input.email === null ? null : validateText(input.email, 'email', customerLimits.email)
  if (input.taxId !== undefined) data.taxId = input.taxId === null ? null : validateTaxId(input.taxId)
  if (input.metadata !== undefined) {
    data.metadata = input.metadata === null ? Prisma.DbNull : (validateMetadata(input.metadata) as Prisma.InputJsonObject)
  }
  return inTransaction(context, async (transaction) => {
    await getCustomer(transaction, customerId)
    const customer = await transaction.db.customer.update({ where: { id: customerId }, data: { ...data, updatedAt: transaction.clock.now() } })
    await recordEvent(transaction, 'customer.updated', customer)
    return customer
  })
}
