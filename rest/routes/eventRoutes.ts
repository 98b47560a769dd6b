import type { RestRoute } from '../RestRoute'

const eventFields = 'id type createdAt data'

export const eventRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/events',
    errors: [],
    summary: 'List events, newest first (extension)',
    idempotency: 'ignored',
    operation: `query ListEvents($type: String, $limit: Int, $before: String) {
      events(type: $type, first: $limit, after: $before) { edges { node { ${eventFields} } } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: 'GET',
    path: '/v1/events/{eventId}',
    errors: ['event_not_found'],
    summary: 'Retrieve an event (extension)',
    idempotency: 'ignored',
    operation: `query GetEvent($eventId: ID!) { event(id: $eventId) { ${eventFields} } }`,
  },
]
