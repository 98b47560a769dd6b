import { execute, parse, type DocumentNode, type GraphQLSchema } from 'graphql'
import type { Services } from '../src/Services'
import type { AccountScope, Transaction } from '../src/domain/DomainContext'
import type { EventResource } from '../src/events/eventTypes'
import type { EventSubject, ResourceRenderer } from '../src/events/resourceRenderer'
import { createGraphQLContext } from '../src/graphql/createGraphQLContext'
import type { CompiledRoute } from './compileRoutes'
import { entitlementFields } from './routes/subscriptionRoutes'

// Which GET shows each resource. An entitlement has no GET of its own: its `data` is the item of
// GET /v1/customers/{id}/entitlements, read through node(id:).
const getRoutes: Record<Exclude<EventResource, 'entitlement'>, string> = {
  customer: '/v1/customers/{customerId}',
  checkoutSession: '/v1/checkout/sessions/{sessionId}',
  subscription: '/v1/subscriptions/{subscriptionId}',
  invoice: '/v1/invoices/{invoiceId}',
  transaction: '/v1/transactions/{transactionId}',
  credits: '/v1/customers/{customerId}/credits',
}

interface Rendering {
  document: DocumentNode
  rootField: string
  variables(subject: EventSubject): Record<string, unknown>
}

/**
 * The renderer events use for `data`: the GET route's own operation, executed against the transaction
 * that made the change, as a reader of the account. The REST shape is defined once, by the route.
 */
export function createResourceRenderer(services: Services, schema: GraphQLSchema, routes: readonly CompiledRoute[]): ResourceRenderer {
  const renderings = new Map<EventResource, Rendering>()
  for (const [resource, path] of Object.entries(getRoutes) as [EventResource, string][]) {
    const compiled = routes.find((candidate) => candidate.route.method === 'GET' && candidate.route.path === path)
    if (!compiled) throw new Error(`No GET ${path} route to render ${resource} events`)
    const parameter = compiled.pathParameters[0] as string
    renderings.set(resource, {
      document: compiled.document,
      rootField: compiled.rootField,
      variables: (subject) =>
        isBalanceSubject(resource, subject) ? { [parameter]: subject.customerId, currency: subject.currency } : { [parameter]: subject.id },
    })
  }
  renderings.set('entitlement', {
    document: parse(`query RenderEntitlement($id: ID!) { entitlement: node(id: $id) { ... on Entitlement { ${entitlementFields} } } }`),
    rootField: 'entitlement',
    variables: (subject) => ({ id: 'id' in subject ? subject.id : '' }),
  })

  return async (db: Transaction, account: AccountScope, resource: EventResource, subject: EventSubject) => {
    const rendering = renderings.get(resource)
    if (!rendering) throw new Error(`No rendering for ${resource}`)
    const contextValue = await createGraphQLContext({ services, requestId: 'event', caller: { keyId: 'event', account, scopes: ['read'] }, db })
    const result = await execute({ schema, document: rendering.document, variableValues: rendering.variables(subject), contextValue })
    const value = (result.data as Record<string, unknown> | null | undefined)?.[rendering.rootField]
    if (result.errors?.length || value == null) {
      throw new Error(`Could not render ${resource} for an event: ${result.errors?.[0]?.message ?? 'not found'}`)
    }
    // Through JSON, as a GET response is: dates become their ISO text.
    const data = JSON.parse(JSON.stringify(value)) as Record<string, unknown>
    return isBalanceSubject(resource, subject) ? { ...data, amount: subject.amount } : data
  }
}

/** Only a balance is named by customer and currency; any other subject is read by its id alone (a whole row may be passed). */
function isBalanceSubject(resource: EventResource, subject: EventSubject): subject is Extract<EventSubject, { amount: string }> {
  return resource === 'credits' && !('id' in subject)
}
