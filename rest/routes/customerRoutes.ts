import type { RestRoute } from '../RestRoute'

const customerFields = 'id externalId name email taxId metadata createdAt'
const customerListFields = 'id externalId name email taxId createdAt'

export const customerRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/customers',
    errors: ['externalId_conflict'],
    summary: 'Create a customer',
    idempotency: 'required',
    body: 'input',
    successStatus: 201,
    operation: `mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ${customerFields} } }`,
  },
  {
    method: 'GET',
    path: '/v1/customers',
    errors: [],
    summary: 'List customers, newest first',
    idempotency: 'ignored',
    operation: `query ListCustomers($externalId: String, $limit: Int, $before: String) {
      customers(externalId: $externalId, first: $limit, after: $before) {
        edges { node { ${customerListFields} } }
        pageInfo { hasNextPage endCursor }
      }
    }`,
  },
  {
    method: 'GET',
    path: '/v1/customers/{customerId}',
    errors: ['customer_not_found'],
    summary: 'Retrieve a customer',
    idempotency: 'ignored',
    operation: `query GetCustomer($customerId: ID!) { customer(id: $customerId) { ${customerFields} } }`,
  },
  {
    method: 'PATCH',
    path: '/v1/customers/{customerId}',
    errors: ['customer_not_found'],
    summary: 'Update a customer (null clears a field)',
    idempotency: 'required',
    body: 'input',
    operation: `mutation UpdateCustomer($customerId: ID!, $input: UpdateCustomerInput!) {
      updateCustomer(id: $customerId, input: $input) { ${customerFields} }
    }`,
  },
]
