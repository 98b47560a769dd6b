import type { RestRoute } from '../RestRoute'

const productFields = 'id name type description metadata status defaultPriceId createdAt updatedAt'
const priceFields = 'id productId amount currency model interval usageBillingMode meterId active createdAt updatedAt'

export const productRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/products',
    errors: ['meter_not_found'],
    summary: 'Create a product, optionally with its default price',
    idempotency: 'required',
    body: 'input',
    successStatus: 201,
    operation: `mutation CreateProduct($input: CreateProductInput!) { createProduct(input: $input) { ${productFields} } }`,
  },
  {
    method: 'GET',
    path: '/v1/products',
    errors: [],
    summary: 'List products, newest first',
    idempotency: 'ignored',
    operation: `query ListProducts($status: ProductStatus, $limit: Int, $before: String) {
      products(status: $status, first: $limit, after: $before) { edges { node { ${productFields} } } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: 'GET',
    path: '/v1/products/{productId}',
    errors: ['product_not_found'],
    summary: 'Retrieve a product',
    idempotency: 'ignored',
    operation: `query GetProduct($productId: ID!) { product(id: $productId) { ${productFields} } }`,
  },
  {
    method: 'PATCH',
    path: '/v1/products/{productId}',
    errors: ['product_not_found'],
    summary: 'Update a product (null clears description and metadata)',
    idempotency: 'required',
    body: 'input',
    operation: `mutation UpdateProduct($productId: ID!, $input: UpdateProductInput!) { updateProduct(id: $productId, input: $input) { ${productFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/products/{productId}/archive',
    errors: ['product_not_found', 'active_subscription'],
    summary: 'Archive a product (refused while it has subscriptions that are not canceled)',
    idempotency: 'required',
    operation: `mutation ArchiveProduct($productId: ID!) { archiveProduct(id: $productId) { ${productFields} } }`,
  },
  {
    method: 'POST',
    path: '/v1/products/{productId}/prices',
    errors: ['product_not_found', 'meter_not_found'],
    summary: 'Add a price to a product',
    idempotency: 'optional',
    body: 'input',
    successStatus: 201,
    operation: `mutation CreatePrice($productId: ID!, $input: PriceInput!) { createPrice(productId: $productId, input: $input) { ${priceFields} } }`,
  },
  {
    method: 'PATCH',
    path: '/v1/products/{productId}/prices/{priceId}',
    errors: ['product_not_found', 'price_not_found'],
    summary: 'Change a price\'s amount or currency',
    idempotency: 'optional',
    body: 'input',
    operation: `mutation UpdatePrice($productId: ID!, $priceId: ID!, $input: UpdatePriceInput!) {
      updatePrice(productId: $productId, priceId: $priceId, input: $input) { ${priceFields} }
    }`,
  },
]
