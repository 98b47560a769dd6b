import type { RestRoute } from '../RestRoute'

const endpointFields = 'id url events description status createdAt updatedAt'
const attemptFields = 'id eventId endpointId attempt status responseStatus durationMs error createdAt'

export const webhookEndpointRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/webhook_endpoints',
    errors: ['invalid_state'],
    summary: 'Create a webhook endpoint; the answer holds its signing secret, shown only this once (extension)',
    idempotency: 'required',
    body: 'input',
    successStatus: 201,
    operation: `mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { ${endpointFields} secret } }`,
    secretFields: ['secret'],
  },
  {
    method: 'GET',
    path: '/v1/webhook_endpoints',
    errors: [],
    summary: 'List webhook endpoints, newest first (extension)',
    idempotency: 'ignored',
    operation: `query ListWebhookEndpoints($limit: Int, $before: String) {
      webhookEndpoints(first: $limit, after: $before) { edges { node { ${endpointFields} } } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: 'GET',
    path: '/v1/webhook_endpoints/{endpointId}',
    errors: ['webhook_endpoint_not_found'],
    summary: 'Retrieve a webhook endpoint (extension)',
    idempotency: 'ignored',
    operation: `query GetWebhookEndpoint($endpointId: ID!) { webhookEndpoint(id: $endpointId) { ${endpointFields} } }`,
  },
  {
    method: 'PATCH',
    path: '/v1/webhook_endpoints/{endpointId}',
    errors: ['webhook_endpoint_not_found'],
    summary: 'Update a webhook endpoint: url, events, description, status (extension)',
    idempotency: 'optional',
    body: 'input',
    operation: `mutation UpdateWebhookEndpoint($endpointId: ID!, $input: UpdateWebhookEndpointInput!) {
      updateWebhookEndpoint(id: $endpointId, input: $input) { ${endpointFields} }
    }`,
  },
  {
    method: 'DELETE',
    path: '/v1/webhook_endpoints/{endpointId}',
    errors: ['webhook_endpoint_not_found'],
    summary: 'Delete a webhook endpoint (extension)',
    idempotency: 'optional',
    operation: `mutation DeleteWebhookEndpoint($endpointId: ID!) { deleteWebhookEndpoint(id: $endpointId) { id deleted } }`,
  },
  {
    method: 'POST',
    path: '/v1/webhook_endpoints/{endpointId}/rotate_secret',
    errors: ['webhook_endpoint_not_found', 'invalid_state'],
    summary: 'Replace the signing secret; the answer holds the new one, the old one keeps signing for 24 hours (extension)',
    idempotency: 'optional',
    operation: `mutation RotateWebhookEndpointSecret($endpointId: ID!) { rotateWebhookEndpointSecret(id: $endpointId) { ${endpointFields} secret } }`,
    secretFields: ['secret'],
  },
  {
    method: 'GET',
    path: '/v1/webhook_endpoints/{endpointId}/deliveries',
    errors: ['webhook_endpoint_not_found'],
    summary: 'Every delivery attempt to this endpoint, newest first (extension)',
    idempotency: 'ignored',
    operation: `query ListWebhookEndpointDeliveries($endpointId: ID!, $limit: Int, $before: String) {
      webhookEndpointDeliveries(endpointId: $endpointId, first: $limit, after: $before) { edges { node { ${attemptFields} } } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: 'POST',
    path: '/v1/events/{eventId}/redeliver',
    errors: ['event_not_found'],
    summary: 'Send an event again to every enabled endpoint that matches it now (extension)',
    idempotency: 'optional',
    successStatus: 202,
    operation: `mutation RedeliverEvent($eventId: ID!) { redeliverEvent(id: $eventId) { eventId endpointIds } }`,
  },
]
