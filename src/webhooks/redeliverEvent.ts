import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { getEvent } from '../events/getEvent'
import { Prisma } from '../generated/prisma/client'
import { webhookDeliveriesChannel } from './webhookDeliveriesChannel'

export interface Redelivery {
  eventId: string
  /** The endpoints that will get the event again: every enabled one that matches it now. */
  endpointIds: string[]
}

/** Owes the event once more to every enabled endpoint that subscribes to its type now (a new delivery each, due at once). */
export async function redeliverEvent(context: DomainContext, eventId: string): Promise<Redelivery> {
  return inTransaction(context, async (transaction) => {
    const event = await getEvent(transaction, eventId, 'id')
    const endpoints = await transaction.db.webhookEndpoint.findMany({
      where: { accountId: transaction.account.id, status: 'enabled', OR: [{ events: { has: '*' } }, { events: { has: event.type } }] },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
    })
    for (const endpoint of endpoints) {
      await transaction.db.$executeRaw(Prisma.sql`
        INSERT INTO "WebhookDelivery" ("id", "accountId", "eventId", "endpointId", "status", "attempts", "nextAttemptAt", "createdAt")
        VALUES (${createId('WebhookDelivery')}, ${transaction.account.id}, ${event.id}, ${endpoint.id}, 'pending', 0, clock_timestamp(), clock_timestamp())`)
    }
    if (endpoints.length > 0) await transaction.db.$executeRaw(Prisma.sql`SELECT pg_notify(${webhookDeliveriesChannel}, '')`)
    return { eventId: event.id, endpointIds: endpoints.map((endpoint) => endpoint.id) }
  })
}
