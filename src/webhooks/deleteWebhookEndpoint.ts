import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { getWebhookEndpoint } from './getWebhookEndpoint'

/** Removes the endpoint with its deliveries and their attempts; an attempt in flight records nothing. */
export async function deleteWebhookEndpoint(context: DomainContext, endpointId: string): Promise<{ id: string; deleted: true }> {
  return inTransaction(context, async (transaction) => {
    const endpoint = await getWebhookEndpoint(transaction, endpointId, 'id')
    await transaction.db.webhookEndpoint.delete({ where: { id: endpoint.id } })
    return { id: endpoint.id, deleted: true }
  })
}
