import { Prisma } from '../generated/prisma/client'
import { createId } from '../domain/createId'
import type { TransactionContext } from '../domain/DomainContext'
import { resourceOfEventType, type EventType } from './eventTypes'
import { resourceRenderer, type EventSubject } from './resourceRenderer'

export type EventContext = Pick<TransactionContext, 'db' | 'account' | 'clock'>

/**
 * Records that something happened, in the transaction of the change itself (`context.db` is that
 * transaction): the event commits exactly when the change does, and it is owed to every matching
 * endpoint in the same statement (billing_record_event). Call it after the change is written, so that
 * `data` shows the resource as it now is.
 */
export async function recordEvent(context: EventContext, type: EventType, subject: EventSubject): Promise<string> {
  const data = await resourceRenderer()(context.db, context.account, resourceOfEventType(type), subject)
  const id = createId('Event')
  await context.db.$executeRaw(
    Prisma.sql`SELECT billing_record_event(${id}, ${context.account.id}, ${type}, ${JSON.stringify(data)}::jsonb, ${context.clock.now()}::timestamptz)`,
  )
  return id
}
