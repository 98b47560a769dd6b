import type { RestRoute } from '../RestRoute'

const eventFields = 'id customerId meterId quantity status createdAt'
const meterListFields = 'id name aggregation unit resetPeriod createdAt'

export const usageRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/usage/events',
    errors: ['customer_not_found', 'meter_not_found', 'idempotency_key_reused'],
    summary: 'Record a usage event (idempotent by the body\'s idempotencyKey)',
    idempotency: 'ignored',
    body: 'input',
    operation: `mutation RecordUsageEvent($input: RecordUsageEventInput!) { recordUsageEvent(input: $input) { ${eventFields} } }`,
  },
  {
    method: 'GET',
    path: '/v1/usage/events',
    errors: [],
    summary: 'List usage events, newest first',
    idempotency: 'ignored',
    operation: `query ListUsageEvents($customerId: ID, $meterId: ID, $limit: Int, $before: String) {
      usageEvents(customerId: $customerId, meterId: $meterId, first: $limit, after: $before) { edges { node { ${eventFields} } } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: 'POST',
    path: '/v1/usage/meters',
    errors: [],
    summary: 'Create a meter',
    idempotency: 'required',
    body: 'input',
    successStatus: 201,
    operation: `mutation CreateMeter($input: CreateMeterInput!) { createMeter(input: $input) { id name slug aggregation unit resetPeriod createdAt } }`,
  },
  {
    method: 'GET',
    path: '/v1/usage/meters',
    errors: [],
    summary: 'List meters, newest first',
    idempotency: 'ignored',
    operation: `query ListMeters($limit: Int, $before: String) { meters(first: $limit, after: $before) { edges { node { ${meterListFields} } } pageInfo { hasNextPage endCursor } } }`,
  },
  {
    method: 'POST',
    path: '/v1/access/check',
    errors: ['customer_not_found', 'meter_not_found'],
    summary: 'May the customer use this much of the meter? (a denial is a 200 with allowed false)',
    idempotency: 'ignored',
    body: 'input',
    operation: `query CheckAccess($input: AccessCheckInput!) { accessCheck(input: $input) { allowed reason paymentUrl } }`,
  },
  {
    method: 'POST',
    path: '/v1/access/consume',
    errors: ['customer_not_found', 'meter_not_found', 'idempotency_key_reused'],
    summary: 'Atomic check-and-debit (extension): record the usage only if access is allowed; a denial is a 200 with allowed false',
    idempotency: 'ignored',
    body: 'input',
    operation: `mutation ConsumeAccess($input: RecordUsageEventInput!) {
      consumeAccess(input: $input) { allowed reason paymentUrl event { id customerId meterId quantity status createdAt } }
    }`,
  },
]
