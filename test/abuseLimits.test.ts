import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { defaultQueryLimits } from '../src/graphql/queryLimits'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { createTestDatabase } from './support/testDatabase'

describe('per-key rate limits, shared by every process', () => {
  let databaseUrl: string
  let first: TestApplication
  let second: TestApplication
  beforeAll(async () => {
    databaseUrl = await createTestDatabase()
    first = await startTestApplication({ databaseUrl, rateLimitPerSecond: 20 })
    second = await startTestApplication({ databaseUrl, rateLimitPerSecond: 20 })
  })
  afterAll(async () => {
    await first.close()
    await second.close()
  })

  async function startOfSecond() {
    while (Date.now() % 1000 > 100) await new Promise((resolve) => setTimeout(resolve, 5))
  }

  test('over the limit: 429 rate_limited with Retry-After; other keys are not affected', async () => {
    await startOfSecond()
    const responses = await Promise.all(Array.from({ length: 40 }, () => first.request('GET', '/v1/customers')))
    const limited = responses.filter((response) => response.status === 429)
    expect(responses.filter((response) => response.status === 200)).toHaveLength(20)
    expect(limited).toHaveLength(20)
    expect(limited[0]!.body).toMatchObject({ data: null, success: false, error: { code: 'rate_limited' } })
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const otherKey = await first.createKey({ account: 'unlimited-neighbour' })
    expect((await first.request('GET', '/v1/customers', { key: otherKey })).status).toBe(200)
    const graph = await first.graphql('{ customers { edges { node { id } } } }')
    expect([undefined, 'rate_limited']).toContain(graph.body.errors?.[0]?.extensions?.code)
  })

  test('two processes count together: what one admitted, the other no longer can', async () => {
    const key = await first.createKey({ account: 'shared-limit' })
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await startOfSecond()
    const fromFirst = await Promise.all(Array.from({ length: 15 }, () => first.request('GET', '/v1/customers', { key })))
    expect(fromFirst.every((response) => response.status === 200)).toBe(true)
    await first.application.services.rateLimiter.sync()
    await second.application.services.rateLimiter.sync()
    const fromSecond = await Promise.all(Array.from({ length: 15 }, () => second.request('GET', '/v1/customers', { key })))
    expect(fromSecond.filter((response) => response.status === 200)).toHaveLength(5)
    expect(fromSecond.filter((response) => response.status === 429)).toHaveLength(10)
  })
})

describe('GraphQL query limits', () => {
  let app: TestApplication
  beforeAll(async () => {
    app = await startTestApplication()
  })
  afterAll(async () => {
    await app.close()
  })

  test('too deep, too many aliases, too costly: refused before running, as validation_error', async () => {
    let deep = '{ id }'
    for (let level = 0; level < defaultQueryLimits.maxDepth; level += 1) deep = `{ node(id: "cus_x") { ... on Customer { usageEvents(first: 1) { edges { node ${deep} } } } } }`
    const tooDeep = await app.graphql(`query ${deep}`)
    expect(tooDeep.body.errors[0]).toMatchObject({ message: expect.stringMatching(/levels deep/), extensions: { code: 'validation_error' } })

    const aliases = Array.from({ length: defaultQueryLimits.maxAliases + 1 }, (_, index) => `a${index}: errorCodes`).join(' ')
    const tooManyAliases = await app.graphql(`{ ${aliases} }`)
    expect(tooManyAliases.body.errors[0].message).toMatch(/aliases/)

    const costly = await app.graphql('{ customers(first: 500) { edges { node { usageEvents(first: 500) { edges { node { id } } } } } } }')
    expect(costly.body.errors[0].message).toMatch(/smaller pages/)
    const fine = await app.graphql('{ customers(first: 50) { edges { node { usageEvents(first: 50) { edges { node { id } } } } } } }')
    expect(fine.body.errors).toBeUndefined()
  })

  test('introspection and GraphiQL can be turned off', async () => {
    expect((await app.graphql('{ __schema { queryType { name } } }')).body.data.__schema.queryType.name).toBe('Query')
    const closed = await startTestApplication({ graphql: { introspection: false, graphiql: false, limits: defaultQueryLimits } })
    try {
      const introspection = await closed.graphql('{ __schema { queryType { name } } }')
      expect(introspection.body.errors[0].extensions.code).toBe('validation_error')
      const page = await fetch(`${closed.baseUrl}/graphql`, { headers: { Accept: 'text/html' } })
      expect(await page.text()).not.toContain('YogaGraphiQL')
      expect((await closed.graphql('{ errorCodes }')).body.data.errorCodes).toContain('rate_limited')
    } finally {
      await closed.close()
    }
  })
})
