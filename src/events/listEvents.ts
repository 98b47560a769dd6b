import type { DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { afterPosition, newestFirst, readPage, type Page, type PageRequest } from '../domain/Page'
import type { Event } from '../generated/prisma/client'
import { isEventType } from './eventTypes'

export async function listEvents(context: DomainContext, filter: { type?: string | null }, page: PageRequest): Promise<Page<Event>> {
  if (filter.type != null && !isEventType(filter.type)) {
    throw new DomainError('validation_error', 'type must be one of the event types (see the README)', { param: 'type' })
  }
  return readPage(page, (take) =>
    context.db.event.findMany({
      where: { accountId: context.account.id, ...(filter.type == null ? {} : { type: filter.type }), ...afterPosition(page.after) },
      orderBy: newestFirst,
      take,
    }),
  )
}
