import type { RestRoute } from '../RestRoute'
import { paymentFields } from './paymentFields'

const sessionFields = `id mode status customerId productId priceId amount currency url successUrl cancelUrl metadata subscriptionId
  expiresAt paidAt createdAt ${paymentFields}`
const transactionFields = 'id customerId checkoutId invoiceId status amount amountRefunded currency createdAt'

export const paymentRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/customers/{customerId}/credits',
    errors: ['customer_not_found'],
    summary: 'A customer\'s credit balance in one currency (default USDC)',
    idempotency: 'ignored',
    operation: `query GetCreditBalance($customerId: ID!, $currency: Currency) {
      creditBalance(customerId: $customerId, currency: $currency) { customerId currency balance updatedAt }
    }`,
  },
  {
    method: 'POST',
    path: '/v1/checkout/sessions',
    errors: ['customer_not_found', 'product_not_found', 'invalid_state', 'rail_not_available', 'provider_error'],
    summary: 'Create a checkout session (modes credits and payment)',
    idempotency: 'required',
    body: 'input',
    successStatus: 201,
    operation: `mutation CreateCheckoutSession($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { ${sessionFields} } }`,
  },
  {
    method: 'GET',
    path: '/v1/checkout/sessions/{sessionId}',
    errors: ['checkout_session_not_found'],
    summary: 'Retrieve a checkout session',
    idempotency: 'ignored',
    operation: `query GetCheckoutSession($sessionId: ID!) { checkoutSession(id: $sessionId) { ${sessionFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/checkout/sessions/{sessionId}/cancel',
    errors: ['checkout_session_not_found', 'invalid_state', 'provider_error'],
    summary: 'Cancel an open checkout session (extension)',
    idempotency: 'optional',
    operation: `mutation CancelCheckoutSession($sessionId: ID!) { cancelCheckoutSession(id: $sessionId) { ${sessionFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/test_helpers/checkout/sessions/{sessionId}/pay',
    errors: ['not_found', 'checkout_session_not_found', 'invalid_state'],
    summary: 'Sandbox: settle a checkout session as the payment rail would (test accounts only)',
    idempotency: 'optional',
    operation: `mutation PayCheckoutSessionForTesting($sessionId: ID!) { payCheckoutSessionForTesting(id: $sessionId) { ${sessionFields} } }`,
  },
  {
    method: 'GET',
    path: '/v1/transactions',
    errors: [],
    summary: 'List transactions, newest first',
    idempotency: 'ignored',
    queryAliases: { before: 'cursor' },
    operation: `query ListTransactions($limit: Int, $cursor: String) {
      transactions(first: $limit, after: $cursor) { edges { node { ${transactionFields} } } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: 'POST',
    path: '/v1/transactions/{transactionId}/refund',
    errors: ['transaction_not_found', 'invalid_state', 'provider_error'],
    summary: 'Refund a succeeded transaction through its provider (extension); amountRefunded counts it once the provider confirms',
    idempotency: 'required',
    body: 'input',
    successStatus: 202,
    operation: `mutation RefundTransaction($transactionId: ID!, $input: RefundTransactionInput) { refundTransaction(id: $transactionId, input: $input) { ${transactionFields} } }`,
  },
  {
    method: 'GET',
    path: '/v1/transactions/{transactionId}',
    errors: ['transaction_not_found'],
    summary: 'Retrieve a transaction',
    idempotency: 'ignored',
    operation: `query GetTransaction($transactionId: ID!) { transaction(id: $transactionId) { ${transactionFields} } }`,
  },
]
