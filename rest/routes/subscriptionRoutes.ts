import type { RestRoute } from '../RestRoute'
import { paymentFields } from './paymentFields'

const subscriptionFields = 'id status customerId productId priceId paymentMethod currentPeriodStart currentPeriodEnd createdAt'
/** An entitlement as the list of a customer's entitlements shows it (also the `data` of its events). */
export const entitlementFields = 'id productId status source startsAt endsAt'
const invoiceListFields = 'id customerId subscriptionId status amountDue currency dueDate createdAt'
const invoiceFields = `${invoiceListFields} total amountPaid periodStart periodEnd paidAt paymentUrl
  lines { description priceId meterId quantity unitAmount amount } ${paymentFields}`

export const subscriptionRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/subscriptions',
    errors: ['customer_not_found', 'product_not_found', 'invalid_state', 'rail_not_available', 'tax_id_required', 'provider_error'],
    summary: 'Subscribe a customer to a product (trialing, with its first invoice open)',
    idempotency: 'required',
    body: 'input',
    successStatus: 201,
    operation: `mutation CreateSubscription($input: CreateSubscriptionInput!) { createSubscription(input: $input) { ${subscriptionFields} } }`,
  },
  {
    method: 'GET',
    path: '/v1/subscriptions',
    errors: [],
    summary: 'List subscriptions, newest first',
    idempotency: 'ignored',
    operation: `query ListSubscriptions($customerId: ID, $limit: Int, $before: String) {
      subscriptions(customerId: $customerId, first: $limit, after: $before) {
        edges { node { id status customerId productId currentPeriodEnd createdAt } } pageInfo { hasNextPage endCursor }
      }
    }`,
  },
  {
    method: 'GET',
    path: '/v1/subscriptions/{subscriptionId}',
    errors: ['subscription_not_found'],
    summary: 'Retrieve a subscription',
    idempotency: 'ignored',
    operation: `query GetSubscription($subscriptionId: ID!) { subscription(id: $subscriptionId) { ${subscriptionFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/subscriptions/{subscriptionId}/cancel',
    errors: ['subscription_not_found', 'invalid_state'],
    summary: 'Cancel a subscription (from any state but canceled)',
    idempotency: 'required',
    operation: `mutation CancelSubscription($subscriptionId: ID!) { cancelSubscription(id: $subscriptionId) { id status canceledAt } }`,
  },
  {
    method: 'POST',
    path: '/v1/subscriptions/{subscriptionId}/pause',
    errors: ['subscription_not_found', 'invalid_state'],
    summary: 'Pause an active subscription',
    idempotency: 'optional',
    operation: `mutation PauseSubscription($subscriptionId: ID!) { pauseSubscription(id: $subscriptionId) { id status } }`,
  },
  {
    method: 'POST',
    path: '/v1/subscriptions/{subscriptionId}/resume',
    errors: ['subscription_not_found', 'invalid_state'],
    summary: 'Resume a paused subscription',
    idempotency: 'optional',
    operation: `mutation ResumeSubscription($subscriptionId: ID!) { resumeSubscription(id: $subscriptionId) { id status } }`,
  },
  {
    method: 'POST',
    path: '/v1/entitlements/check',
    errors: ['customer_not_found', 'product_not_found'],
    summary: 'May the customer use the product? (a denial is a 200 with allowed false)',
    idempotency: 'ignored',
    body: 'input',
    operation: `query CheckEntitlement($input: EntitlementCheckInput!) { entitlementCheck(input: $input) { allowed reason } }`,
  },
  {
    method: 'GET',
    path: '/v1/customers/{customerId}/entitlements',
    errors: ['customer_not_found'],
    summary: 'A customer\'s entitlements, newest first',
    idempotency: 'ignored',
    operation: `query ListEntitlements($customerId: ID!, $limit: Int, $before: String) {
      entitlements(customerId: $customerId, first: $limit, after: $before) {
        edges { node { ${entitlementFields} } } pageInfo { hasNextPage endCursor }
      }
    }`,
  },
  {
    method: 'GET',
    path: '/v1/invoices',
    errors: [],
    summary: 'List invoices, newest first',
    idempotency: 'ignored',
    queryAliases: { before: 'cursor' },
    operation: `query ListInvoices($limit: Int, $cursor: String) {
      invoices(first: $limit, after: $cursor) { edges { node { ${invoiceListFields} } } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: 'GET',
    path: '/v1/invoices/{invoiceId}',
    errors: ['invoice_not_found'],
    summary: 'Retrieve an invoice with its lines',
    idempotency: 'ignored',
    operation: `query GetInvoice($invoiceId: ID!) { invoice(id: $invoiceId) { ${invoiceFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/test_helpers/invoices/{invoiceId}/pay',
    errors: ['not_found', 'invoice_not_found', 'invalid_state'],
    summary: 'Sandbox: a successful payment attempt on an open invoice (test accounts only)',
    idempotency: 'optional',
    operation: `mutation PayInvoiceForTesting($invoiceId: ID!) { payInvoiceForTesting(id: $invoiceId) { ${invoiceFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/test_helpers/invoices/{invoiceId}/fail',
    errors: ['not_found', 'invoice_not_found', 'invalid_state'],
    summary: 'Sandbox: a failed payment attempt on an open invoice (test accounts only)',
    idempotency: 'optional',
    operation: `mutation FailInvoiceForTesting($invoiceId: ID!) { failInvoiceForTesting(id: $invoiceId) { ${invoiceFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/test_helpers/clock/advance',
    errors: ['not_found'],
    summary: 'Sandbox: move the account\'s clock forward and run the billing that falls due (test accounts only)',
    idempotency: 'optional',
    body: 'input',
    operation: `mutation AdvanceClock($input: AdvanceClockInput!) { advanceClockForTesting(input: $input) { now } }`,
  },
]
