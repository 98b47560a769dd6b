import type { DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import type { Event } from '../generated/prisma/client'

export async function getEvent(context: DomainContext, eventId: string, param = 'eventId'): Promise<Event> {
  const event = await context.db.event.findUnique({ where: { accountId_id: { accountId: context.account.id, id: eventId } } })
  if (!event) throw new DomainError('event_not_found', 'No such event', { param })
  return event
}
