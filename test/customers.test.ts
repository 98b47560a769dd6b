import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

const create = (body: unknown, idempotencyKey = randomUUID()) => app.request('POST', '/v1/customers', { body, idempotencyKey })

describe('customers over REST', () => {
  test('create, get, list and patch, exactly as SPEC.md shapes them', async () => {
    const created = await create({ externalId: 'user-1', name: 'Ana', email: 'ana@example.com', metadata: { plan: 'pro' } })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      data: {
        id: expect.stringMatching(/^cus_[0-9A-Za-z]{24}$/),
        externalId: 'user-1',
        name: 'Ana',
        email: 'ana@example.com',
        taxId: null,
        metadata: { plan: 'pro' },
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
      error: null,
      success: true,
    })
    const id = created.body.data.id

    const fetched = await app.request('GET', `/v1/customers/${id}`)
    expect(fetched.status).toBe(200)
    expect(fetched.body.data).toEqual(created.body.data)

    const listed = await app.request('GET', '/v1/customers?externalId=user-1')
    expect(listed.status).toBe(200)
    expect(listed.body.data).toEqual({
      items: [{ id, externalId: 'user-1', name: 'Ana', email: 'ana@example.com', taxId: null, createdAt: created.body.data.createdAt }],
      hasMore: false,
      nextCursor: null,
    })
    expect(listed.body.data.items[0]).not.toHaveProperty('metadata')

    const patched = await app.request('PATCH', `/v1/customers/${id}`, { body: { name: 'Ana Maria', metadata: { plan: 'team' } }, idempotencyKey: randomUUID() })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ id, name: 'Ana Maria', email: 'ana@example.com', metadata: { plan: 'team' }, externalId: 'user-1' })

    const cleared = await app.request('PATCH', `/v1/customers/${id}`, { body: { email: null, metadata: null }, idempotencyKey: randomUUID() })
    expect(cleared.status).toBe(200)
    expect(cleared.body.data).toMatchObject({ id, name: 'Ana Maria', email: null, metadata: null })
    expect((await app.request('GET', `/v1/customers/${id}`)).body.data).toMatchObject({ email: null, metadata: null, name: 'Ana Maria' })
  })

  test('an externalId that exists is a 409 externalId_conflict', async () => {
    expect((await create({ externalId: 'dup' })).status).toBe(201)
    const second = await create({ externalId: 'dup' })
    expect(second.status).toBe(409)
    expect(second.body).toEqual({
      data: null,
      error: { code: 'externalId_conflict', message: expect.any(String), param: 'externalId' },
      success: false,
    })
  })

  test('metadata of 51 keys is refused with param metadata; 50 are accepted', async () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, index]))
    const refused = await create({ metadata: keys(51) })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({ code: 'validation_error', param: 'metadata' })
    expect((await create({ metadata: keys(50) })).status).toBe(201)
  })

  test('bad fields name the offending parameter', async () => {
    const unknownField = await create({ nickname: 'x' })
    expect(unknownField.status).toBe(400)
    expect(unknownField.body.error).toMatchObject({ code: 'validation_error', param: 'nickname' })
    const wrongType = await create({ name: 42 })
    expect(wrongType.body.error).toMatchObject({ code: 'validation_error', param: 'name' })
    const badEmail = await create({ email: 'not-an-email' })
    expect(badEmail.body.error).toMatchObject({ code: 'validation_error', param: 'email' })
    const nestedMetadata = await create({ metadata: 'text' })
    expect(nestedMetadata.body.error).toMatchObject({ code: 'validation_error', param: 'metadata' })
    const unknownQuery = await app.request('GET', '/v1/customers?color=red')
    expect(unknownQuery.body.error).toMatchObject({ code: 'validation_error', param: 'color' })
  })

  test('an unknown id is 404 customer_not_found for get and patch', async () => {
    const missing = await app.request('GET', '/v1/customers/cus_doesnotexist000000000000')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toMatchObject({ code: 'customer_not_found', param: 'customerId' })
    const patch = await app.request('PATCH', '/v1/customers/cus_doesnotexist000000000000', { body: { name: 'x' }, idempotencyKey: randomUUID() })
    expect(patch.status).toBe(404)
    expect(patch.body.error.code).toBe('customer_not_found')
  })
})

describe('paging', () => {
  test('250 customers in pages of 100: 3 pages, newest first, no duplicates, no gaps', async () => {
    const paged = await startTestApplication()
    try {
      const ids: string[] = []
      for (let start = 0; start < 250; start += 25) {
        const batch = await Promise.all(
          Array.from({ length: 25 }, (_, index) => paged.request('POST', '/v1/customers', { body: { name: `c${start + index}` }, idempotencyKey: randomUUID() })),
        )
        for (const response of batch) {
          expect(response.status).toBe(201)
          ids.push(response.body.data.id)
        }
      }
      const pages: { items: { id: string; createdAt: string }[]; hasMore: boolean; nextCursor: string | null }[] = []
      let cursor: string | null = null
      do {
        const response = await paged.request('GET', `/v1/customers?limit=100${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`)
        expect(response.status).toBe(200)
        pages.push(response.body.data)
        cursor = response.body.data.nextCursor
      } while (cursor)
      expect(pages.map((page) => page.items.length)).toEqual([100, 100, 50])
      expect(pages.map((page) => page.hasMore)).toEqual([true, true, false])
      const seen = pages.flatMap((page) => page.items)
      expect(new Set(seen.map((item) => item.id)).size).toBe(250)
      expect(new Set(seen.map((item) => item.id))).toEqual(new Set(ids))
      const order = seen.map((item) => `${item.createdAt}|${item.id}`)
      expect(order).toEqual([...order].sort().reverse())
    } finally {
      await paged.close()
    }
  })

  test.each(['0', '501', 'abc', '1.5', '-1'])('limit=%s is a 400 validation_error on limit', async (limit) => {
    const response = await app.request('GET', `/v1/customers?limit=${limit}`)
    expect(response.status).toBe(400)
    expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'limit' })
  })

  test('limits 1 and 500 are accepted', async () => {
    expect((await app.request('GET', '/v1/customers?limit=1')).status).toBe(200)
    expect((await app.request('GET', '/v1/customers?limit=500')).status).toBe(200)
  })

  test('a tampered or foreign cursor is 400 invalid_cursor', async () => {
    await create({ name: 'one' })
    await create({ name: 'two' })
    const first = await app.request('GET', '/v1/customers?limit=1')
    const cursor: string = first.body.data.nextCursor
    expect(cursor).toEqual(expect.any(String))
    const [payload, signature] = cursor.split('.') as [string, string]
    const forgedPayload = Buffer.from(JSON.stringify(['2999-01-01T00:00:00.000Z', 'cus_x'])).toString('base64url')
    for (const bad of [`${forgedPayload}.${signature}`, `${payload}.${signature.slice(0, -2)}AA`, 'garbage', `${payload}`]) {
      const response = await app.request('GET', `/v1/customers?before=${encodeURIComponent(bad)}`)
      expect(response.status).toBe(400)
      expect(response.body.error).toMatchObject({ code: 'invalid_cursor', param: 'before' })
    }
    const otherAccount = await app.createKey({ account: 'cursor-thief' })
    const stolen = await app.request('GET', `/v1/customers?before=${encodeURIComponent(cursor)}`, { key: otherAccount })
    expect(stolen.status).toBe(400)
    expect(stolen.body.error.code).toBe('invalid_cursor')
    const valid = await app.request('GET', `/v1/customers?limit=1&before=${encodeURIComponent(cursor)}`)
    expect(valid.status).toBe(200)
  })
})

describe('the graph', () => {
  test('GraphQL and REST return the same customer for the same id, and share cursors', async () => {
    const created = await create({ externalId: 'graph-1', name: 'Bia', email: 'bia@example.com', metadata: { tier: 2 } })
    const id = created.body.data.id
    const result = await app.graphql('query($id: ID!) { customer(id: $id) { id externalId name email taxId metadata createdAt } node(id: $id) { id ... on Customer { name } } }', { id })
    expect(result.body.errors).toBeUndefined()
    expect(result.body.data.customer).toEqual(created.body.data)
    expect(result.body.data.node).toEqual({ id, name: 'Bia' })

    const rest = await app.request('GET', '/v1/customers?limit=1')
    const graph = await app.graphql('{ customers(first: 1) { edges { node { id } } pageInfo { hasNextPage endCursor } } }')
    expect(graph.body.data.customers.pageInfo.endCursor).toBe(rest.body.data.nextCursor)
    const next = await app.graphql('query($after: String) { customers(first: 1, after: $after) { edges { node { id } } } }', { after: rest.body.data.nextCursor })
    const restNext = await app.request('GET', `/v1/customers?limit=1&before=${encodeURIComponent(rest.body.data.nextCursor)}`)
    expect(next.body.data.customers.edges[0].node.id).toBe(restNext.body.data.items[0].id)
  })

  test('mutations create and update through the same domain rules', async () => {
    const created = await app.graphql('mutation { createCustomer(input: { externalId: "graph-2", name: "Caio" }) { id name } }')
    expect(created.body.errors).toBeUndefined()
    const id = created.body.data.createCustomer.id
    const conflict = await app.graphql('mutation { createCustomer(input: { externalId: "graph-2" }) { id } }')
    expect(conflict.body.errors[0].extensions).toMatchObject({ code: 'externalId_conflict', param: 'externalId' })
    const updated = await app.graphql('mutation($id: ID!) { updateCustomer(id: $id, input: { name: null, email: "caio@example.com" }) { name email } }', { id })
    expect(updated.body.data.updateCustomer).toEqual({ name: null, email: 'caio@example.com' })
    const restView = await app.request('GET', `/v1/customers/${id}`)
    expect(restView.body.data).toMatchObject({ name: null, email: 'caio@example.com', externalId: 'graph-2' })
  })

  test('GraphQL errors carry a code from the closed set', async () => {
    const noKey = await app.graphql('{ customers { edges { node { id } } } }', {}, null)
    expect(noKey.body.errors[0].extensions.code).toBe('unauthorized')
    const badLimit = await app.graphql('{ customers(first: 0) { edges { node { id } } } }')
    expect(badLimit.body.errors[0].extensions).toMatchObject({ code: 'validation_error', param: 'first' })
    const syntax = await app.graphql('{ customers(')
    expect(syntax.body.errors[0].extensions.code).toBe('validation_error')
  })
})
