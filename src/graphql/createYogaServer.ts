import { createYoga, type YogaServerInstance } from 'graphql-yoga'
import type { Services } from '../Services'
import { createGraphQLContext } from './createGraphQLContext'
import type { GraphQLContext } from './GraphQLContext'
import { currentRequestId } from '../http/requestScope'
import { maskError } from './maskError'
import { renderLocalGraphiQL } from './renderLocalGraphiQL'
import { schema } from './schema'

export type YogaServer = YogaServerInstance<Record<string, never>, GraphQLContext>

/** The GraphQL endpoint (with GraphiQL in a browser); the listening server is elsewhere (src/server.ts). */
export function createYogaServer(services: Services): YogaServer {
  return createYoga<Record<string, never>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // Errors are logged by maskError (unexpected ones only, with the request id); client mistakes are not ours to log.
    logging: false,
    graphiql: {
      title: 'Billing service GraphQL',
      defaultQuery: '# Add your key under Headers: {"Authorization": "Bearer bk_test_..."}\n{\n  customers(first: 10) {\n    edges { node { id name email createdAt } }\n    pageInfo { hasNextPage endCursor }\n  }\n}\n',
    },
    renderGraphiQL: renderLocalGraphiQL,
    maskedErrors: { maskError: (error) => maskError(error) },
    context: ({ request }) =>
      createGraphQLContext({ services, requestId: currentRequestId() ?? 'unknown', authorization: request.headers.get('authorization') }),
  })
}
