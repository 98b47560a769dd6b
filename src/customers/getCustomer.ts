import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { Customer } from '../generated/prisma/client'

/** The customer with this id in the caller's account; another account's id is as unknown as a made-up one. */
export async function getCustomer(context: DomainContext, customerId: string, param = 'customerId'): Promise<Customer> {
  const customer = await context.db.customer.findUnique({
    where: { accountId_id: { accountId: context.account.id, id: customerId } },
  })
  if (!customer) throw new DomainError('customer_not_found', 'No such customer', { param })
  return customer
}
