import SchemaBuilder from '@pothos/core'
import PrismaPlugin from '@pothos/plugin-prisma'
import RelayPlugin from '@pothos/plugin-relay'
import { DateTimeResolver, EmailAddressResolver, JSONObjectResolver } from 'graphql-scalars'
import { DomainError } from '../domain/DomainError'
import { typeOfId } from '../domain/createId'
import type PrismaTypes from '../generated/pothos-prisma-types'
import { getDatamodel } from '../generated/pothos-prisma-types'
import { fieldScopesPlugin } from './fieldScopesPlugin'
import { requireCaller, type GraphQLContext } from './GraphQLContext'
import { loadNodes, maxNodeIds } from './loadNodes'

// Configuration only: the types live one per file under types/, each with its queries and mutations.

export const builder = new SchemaBuilder<{
  Context: GraphQLContext
  PrismaTypes: PrismaTypes
  DefaultFieldNullability: false
  /** What every connection carries besides its edges (connections.ts counts lazily). */
  Connection: { totalCount?: () => Promise<number> }
  Scalars: {
    DateTime: { Input: Date; Output: Date }
    EmailAddress: { Input: string; Output: string }
    JSONObject: { Input: Record<string, unknown>; Output: unknown }
  }
}>({
  // fieldScopes first: its scope check wraps the other plugins' resolvers, so it runs before them.
  plugins: [fieldScopesPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  prisma: {
    // The client of the request: the root client, or the transaction of an idempotent REST request.
    client: (context) => context.db as never,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Our ids already name their type (`cus_…`), so a node id is the same string the REST API uses:
    // one id per object across both APIs, and still globally unique as Relay requires.
    encodeGlobalID: (_typename, id) => String(id),
    decodeGlobalID: (globalId) => {
      const type = typeOfId(globalId)
      if (!type) throw new DomainError('validation_error', 'Not an id this service issued', { param: 'id' })
      return { typename: type, id: globalId }
    },
    // Node lookups are scoped to the caller's account (each type's findUnique); an id of another
    // account is simply not found, and not found is null, never an error.
    nodeQueryOptions: {
      scopes: ['read'],
      resolve: async (_root, { id }, _context, _info, resolveNode) => nullWhenNotFound(async () => resolveNode(id)),
    },
    // At most 100 ids, one query per type (loadNodes.ts).
    nodesQueryOptions: {
      description: `At most ${maxNodeIds} ids; unknown ids and other accounts' ids are null.`,
      scopes: ['read'],
      resolve: (_root, { ids }, context, _info, resolveNodes) =>
        loadNodes(requireCaller(context), ids, (id) => nullWhenNotFound(async () => (await resolveNodes([id]))[0])),
    },
  },
})

builder.addScalarType('DateTime', DateTimeResolver)
builder.addScalarType('EmailAddress', EmailAddressResolver)
builder.addScalarType('JSONObject', JSONObjectResolver)

async function nullWhenNotFound<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load()
  } catch (error) {
    // Prisma's "record not found" (P2025), raised by the plugin's findUniqueOrThrow.
    if ((error as { code?: unknown }).code === 'P2025') return null
    throw error
  }
}
