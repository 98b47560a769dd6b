import type { Currency } from '../domain/money'
import type { AccountScope, Transaction } from '../domain/DomainContext'
import type { EventResource } from './eventTypes'

/** What an event is about: a resource by id, or a customer's balance in one currency and what moved. */
export type EventSubject = { id: string } | { customerId: string; currency: Currency; amount: string }

/**
 * Turns a resource into `data`: exactly what its GET returns, read inside the transaction that changed
 * it. The REST layer provides it (it owns the representation: rest/renderResource.ts), and the
 * process installs it at start (createApplication, the billing CLI); domain code only names the
 * resource, so there is one definition of each shape.
 */
export type ResourceRenderer = (db: Transaction, account: AccountScope, resource: EventResource, subject: EventSubject) => Promise<Record<string, unknown>>

let installed: ResourceRenderer | undefined

export function installResourceRenderer(renderer: ResourceRenderer): void {
  installed = renderer
}

export function resourceRenderer(): ResourceRenderer {
  if (!installed) throw new Error('No resource renderer installed: events cannot be recorded before the application is created')
  return installed
}
