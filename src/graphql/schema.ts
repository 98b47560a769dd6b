import { GraphQLSchema } from 'graphql'
import { builder } from './builder'
import './types/AccessCheck'
import './types/Account'
import './types/CheckoutSession'
import './types/Credits'
import './types/Customer'
import './types/Entitlement'
import './types/ErrorCode'
import './types/GraphLinks'
import './types/Event'
import './types/Invoice'
import './types/Meter'
import './types/Metrics'
import './types/PaymentInstructions'
import './types/PixProvider'
import './types/Product'
import './types/Subscription'
import './types/Transaction'
import './types/UsageEvent'
import './types/UsdcProvider'
import './types/WebhookEndpoint'

builder.queryType({})
builder.mutationType({})

// Pothos (like graphql-js's SDL reader) takes any type named `Subscription` as the subscription root
// when none is declared, and the billing object has that name. This service has no GraphQL
// subscriptions, so the root is removed; the description makes printSchema write an explicit
// `schema { query mutation }` block, so that tools reading schema.graphql do not guess it back.
const built = builder.toSchema({ sortSchema: true })
export const schema = new GraphQLSchema({
  ...built.toConfig(),
  subscription: null,
  description: 'Billing and entitlement service. Queries and mutations only: there are no GraphQL subscriptions (`Subscription` is the billing object).',
})
