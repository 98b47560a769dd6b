import { builder } from '../builder'
import { loadChildRecords, loadLinkedRecord } from '../loadLinks'
import { CheckoutSessionNode } from './CheckoutSession'
import { CreditBalanceType, CreditLedgerEntryNode } from './Credits'
import { CustomerType } from './Customer'
import { EntitlementNode } from './Entitlement'
import { EventNode } from './Event'
import { InvoiceLineType, InvoiceNode } from './Invoice'
import { MeterNode, UsageSummaryType } from './Meter'
import { PriceType, ProductNode } from './Product'
import { SubscriptionNode } from './Subscription'
import { TransactionNode } from './Transaction'
import { UsageEventNode } from './UsageEvent'
import { EventRedelivery, WebhookAttemptNode, WebhookEndpointNode } from './WebhookEndpoint'

// Every `…Id` field has its object beside it, so that a dashboard walks the graph in one request.
// All of them are batched per kind (src/graphql/loadLinks.ts) and need scope read.

builder.objectFields(SubscriptionNode, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  product: t.field({ type: ProductNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'product', parent.productId).then(required) }),
  price: t.field({ type: PriceType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'price', parent.priceId).then(required) }),
  invoices: t.field({
    type: [InvoiceNode],
    description: 'Its invoices, newest first (one per period).',
    scopes: ['read'],
    resolve: (parent, _args, context) => loadChildRecords(context, 'invoicesOfSubscriptions', parent.id),
  }),
  entitlement: t.field({
    type: EntitlementNode,
    nullable: true,
    description: 'The entitlement it grants.',
    scopes: ['read'],
    resolve: async (parent, _args, context) => (await loadChildRecords(context, 'entitlementsOfSubscriptions', parent.id))[0] ?? null,
  }),
}))

builder.objectFields(InvoiceNode, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  subscription: t.field({ type: SubscriptionNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'subscription', parent.subscriptionId).then(required) }),
  transactions: t.field({
    type: [TransactionNode],
    description: 'The payments made for it, newest first.',
    scopes: ['read'],
    resolve: (parent, _args, context) => loadChildRecords(context, 'transactionsOfInvoices', parent.id),
  }),
}))

builder.objectFields(TransactionNode, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  invoice: t.field({ type: InvoiceNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'invoice', parent.invoiceId) }),
  checkoutSession: t.field({ type: CheckoutSessionNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'checkoutSession', parent.checkoutId) }),
}))

builder.objectFields(UsageEventNode, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  meter: t.field({ type: MeterNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'meter', parent.meterId).then(required) }),
}))

builder.objectFields(EntitlementNode, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  product: t.field({ type: ProductNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'product', parent.productId).then(required) }),
  subscription: t.field({ type: SubscriptionNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'subscription', parent.subscriptionId) }),
  checkoutSession: t.field({ type: CheckoutSessionNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'checkoutSession', parent.checkoutSessionId) }),
}))

builder.objectFields(CreditLedgerEntryNode, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  usageEvent: t.field({ type: UsageEventNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'usageEvent', parent.usageEventId) }),
  checkoutSession: t.field({ type: CheckoutSessionNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'checkoutSession', parent.checkoutSessionId) }),
}))

builder.objectFields(CheckoutSessionNode, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  product: t.field({ type: ProductNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'product', parent.productId) }),
  price: t.field({ type: PriceType, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'price', parent.priceId) }),
  subscription: t.field({ type: SubscriptionNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'subscription', parent.subscriptionId) }),
}))

builder.objectFields(PriceType, (t) => ({
  product: t.field({ type: ProductNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'product', parent.productId).then(required) }),
  meter: t.field({ type: MeterNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'meter', parent.meterId) }),
}))

builder.objectFields(CreditBalanceType, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
}))

builder.objectFields(InvoiceLineType, (t) => ({
  price: t.field({ type: PriceType, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'price', parent.priceId) }),
  meter: t.field({ type: MeterNode, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'meter', parent.meterId) }),
}))

builder.objectFields(UsageSummaryType, (t) => ({
  customer: t.field({ type: CustomerType, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId).then(required) }),
  meter: t.field({ type: MeterNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'meter', parent.meterId).then(required) }),
}))

builder.objectFields(WebhookAttemptNode, (t) => ({
  event: t.field({ type: EventNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'event', parent.eventId).then(required) }),
  endpoint: t.field({ type: WebhookEndpointNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'webhookEndpoint', parent.endpointId).then(required) }),
}))

builder.objectFields(EventRedelivery, (t) => ({
  event: t.field({ type: EventNode, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'event', parent.eventId).then(required) }),
  endpoints: t.field({
    type: [WebhookEndpointNode],
    description: 'The endpoints of endpointIds (one deleted since is left out).',
    scopes: ['read'],
    resolve: async (parent, _args, context) =>
      (await Promise.all(parent.endpointIds.map((id) => loadLinkedRecord(context, 'webhookEndpoint', id)))).filter((endpoint) => endpoint !== null),
  }),
}))

/** A required link's target always exists (foreign keys in the same account); its absence is a bug, not a null. */
function required<T>(record: T | null): T {
  if (record === null) throw new Error('A linked record is missing')
  return record
}
