// The event types of CONTRACT §10. Each names the resource its `data` holds (the part before the
// last dot; `checkout.session` is the checkout session, `credits` the balance).

export const eventTypes = [
  'customer.created',
  'customer.updated',
  'checkout.session.completed',
  'checkout.session.expired',
  'subscription.created',
  'subscription.updated',
  'subscription.canceled',
  'invoice.created',
  'invoice.paid',
  'invoice.payment_failed',
  'transaction.succeeded',
  'transaction.failed',
  'transaction.refunded',
  'credits.granted',
  'credits.depleted',
  'entitlement.updated',
] as const

export type EventType = (typeof eventTypes)[number]

export type EventResource = 'customer' | 'checkoutSession' | 'subscription' | 'invoice' | 'transaction' | 'credits' | 'entitlement'

export function resourceOfEventType(type: EventType): EventResource {
  if (type.startsWith('checkout.session.')) return 'checkoutSession'
  return type.slice(0, type.indexOf('.')) as EventResource
}

export function isEventType(value: string): value is EventType {
  return (eventTypes as readonly string[]).includes(value)
}
