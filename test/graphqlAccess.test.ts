import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLObjectType,
  GraphQLNonNull,
  GraphQLScalarType,
  getNamedType,
  isLeafType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApiKey } from '../src/accounts/createApiKey'
import { revokeApiKey } from '../src/accounts/revokeApiKey'
import { allScopes, describeScopes } from '../src/accounts/scopes'
import { fieldScopes } from '../src/graphql/fieldScopesPlugin'
import { schema } from '../src/graphql/schema'
import { restRoutes } from '../rest/restRoutes'
import { fillPath, seedCatalog, type SeededCatalog } from './support/seedCatalog'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Every GraphQL query and mutation field, generated from the schema, against every kind of caller: no
// key, a revoked key, an expired key, each scope alone; and every REST route without a valid key.

let app: TestApplication
let ids: SeededCatalog
let revoked: string
let expired: string
beforeAll(async () => {
  app = await startTestApplication()
  ids = await seedCatalog(app)
  const prisma = app.application.services.database.prisma
  const revokedKey = await createApiKey(prisma, { now: () => new Date() }, { accountName: 'main' })
  await revokeApiKey({ db: prisma, clock: { now: () => new Date() } }, revokedKey.id)
  revoked = revokedKey.key
  expired = (await createApiKey(prisma, { now: () => new Date(Date.now() - 3 * 86_400_000) }, { accountName: 'main', expiresInDays: 1 })).key
})
afterAll(async () => {
  await app.close()
})

/** Public fields: no key needed. Every other field declares its scopes (`scopes` on the field, read back as `extensions.scopes`). */
const publicFields = new Set(['errorCodes'])

function sampleValue(type: GraphQLInputType): string {
  if (type instanceof GraphQLNonNull) return sampleValue(type.ofType)
  if (type instanceof GraphQLList) return `[${sampleValue(type.ofType)}]`
  if (type instanceof GraphQLEnumType) return type.getValues()[0]!.name
  if (type instanceof GraphQLInputObjectType) {
    const required = Object.values(type.getFields()).filter((field) => field.type instanceof GraphQLNonNull)
    return `{ ${required.map((field) => `${field.name}: ${sampleValue(field.type)}`).join(', ')} }`
  }
  const scalar = type as GraphQLScalarType
  if (scalar.name === 'Int') return '1'
  if (scalar.name === 'Float') return '1.5'
  if (scalar.name === 'Boolean') return 'true'
  if (scalar.name === 'JSONObject') return '{}'
  return '"cus_doesnotexist000000000000"'
}

function operationFor(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((argument) => argument.type instanceof GraphQLNonNull)
  const argumentText = args.length ? `(${args.map((argument) => `${argument.name}: ${sampleValue(argument.type)}`).join(', ')})` : ''
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }'
  return `${kind} { ${field.name}${argumentText}${selection} }`
}

const fields = [
  ...Object.values(schema.getQueryType()!.getFields()).map((field) => ({ kind: 'query' as const, field })),
  ...Object.values(schema.getMutationType()!.getFields()).map((field) => ({ kind: 'mutation' as const, field })),
]

describe('every GraphQL field', () => {
  test('states its scopes (or is deliberately public)', () => {
    const unstated = fields.filter(({ field }) => !publicFields.has(field.name) && fieldScopes(field).length === 0).map(({ field }) => field.name)
    expect(unstated).toEqual([])
  })

  test('every field with scopes, nested ones too, ends its description by stating them', () => {
    const scoped = Object.values(schema.getTypeMap())
      .filter((type): type is GraphQLObjectType => type instanceof GraphQLObjectType && !type.name.startsWith('__'))
      .flatMap((type) => Object.values(type.getFields()).map((field) => ({ name: `${type.name}.${field.name}`, field })))
      .filter(({ field }) => fieldScopes(field).length > 0)
    expect(scoped.map(({ name }) => name)).toEqual(expect.arrayContaining(['Query.customers', 'Customer.usageEvents', 'Subscription.customer', 'AccountSettings.pixProvider']))
    const misstated = scoped.filter(({ field }) => !field.description?.endsWith(describeScopes(fieldScopes(field)))).map(({ name }) => name)
    expect(misstated).toEqual([])
    expect(schema.getQueryType()!.getFields().accessCheck!.description).toMatch(/ Scope: write or usage:write\.$/)
  })

  test('a nested field checks its own scopes: a write-only key creates a customer but cannot read its usage events', async () => {
    const writer = await app.createKey({ scopes: ['write'] })
    const response = await app.graphql('mutation { createCustomer(input: { name: "nested scope" }) { id usageEvents { edges { node { id } } } } }', {}, writer)
    expect(response.body.errors[0].path).toEqual(['createCustomer', 'usageEvents'])
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', details: { required: ['read'] } })
  })

  for (const { kind, field } of fields.filter(({ field }) => !publicFields.has(field.name))) {
    test(`${kind} ${field.name}: refused without a valid key, and to every scope it does not accept`, async () => {
      const operation = operationFor(kind, field)
      for (const key of [null, revoked, expired, 'bk_test_madeupmadeupmadeupmadeup']) {
        const response = await app.graphql(operation, {}, key)
        expect(response.body.errors?.[0]?.extensions?.code, `${operation} with ${key ?? 'no key'}`).toBe('unauthorized')
      }
      const accepted = fieldScopes(field)
      for (const scope of allScopes) {
        const response = await app.graphql(operation, {}, await app.createKey({ scopes: [scope] }))
        const code = response.body.errors?.[0]?.extensions?.code
        if (accepted.includes(scope)) expect(['unauthorized', 'insufficient_scope'], `${operation} with ${scope}`).not.toContain(code)
        else {
          expect(code, `${operation} with ${scope}`).toBe('insufficient_scope')
          expect(response.body.errors[0].extensions.details).toEqual({ required: accepted })
        }
      }
    })
  }

  test('node() hides another account\'s objects of every type', async () => {
    const intruder = await app.createKey({ account: 'graph-intruder' })
    for (const id of Object.values(ids)) {
      const response = await app.graphql('query($id: ID!) { node(id: $id) { id } }', { id }, intruder)
      expect(response.body.errors, `${id}: ${JSON.stringify(response.body.errors)}`).toBeUndefined()
      expect(response.body.data.node, id).toBeNull()
      const own = await app.graphql('query($id: ID!) { node(id: $id) { id } }', { id })
      if (!id.startsWith('cle_')) expect(own.body.data.node, id).toEqual({ id })
    }
  })
})

describe('every REST route', () => {
  for (const route of restRoutes) {
    test(`${route.method} ${route.path}: 401 with no, a revoked, an expired or an unknown key`, async () => {
      for (const key of [null, revoked, expired, 'bk_test_madeupmadeupmadeupmadeup']) {
        const response = await app.request(route.method, fillPath(route.path, ids), { key, ...(route.method === 'GET' ? {} : { body: {} }) })
        expect(response.status, `${key ?? 'no key'}`).toBe(401)
        expect(response.body.error.code).toBe('unauthorized')
        expect(JSON.stringify(response.body)).not.toContain(revoked)
      }
    })
  }
})
