import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { Transaction } from '../generated/prisma/client'

export async function getTransaction(context: DomainContext, transactionId: string, param = 'transactionId'): Promise<Transaction> {
  const transaction = await context.db.transaction.findUnique({ where: { accountId_id: { accountId: context.account.id, id: transactionId } } })
  if (!transaction) throw new DomainError('transaction_not_found', 'No such transaction', { param })
  return transaction
}
