import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { clientAddressOf, KeylessRateLimiter } from '../src/accounts/KeylessRateLimiter'
import { readConfiguration } from '../src/readConfiguration'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// What needs no key is limited per client address. The server is started with the option; its limiter
// is then swapped for one that refills a token every 100 s with five saved up, so that what a bucket
// holds does not depend on how fast a loaded machine sends. Each test sends from its own loopback
// address (127.0.0.x), so that each starts with a full bucket.

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication({ keylessRateLimitPerSecond: 1 })
  expect(app.application.services.keylessRateLimiter.enabled).toBe(true)
  app.application.services.keylessRateLimiter = new KeylessRateLimiter(0.01, 500)
})
afterAll(async () => {
  await app.close()
})

function send(from: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const url = new URL(path, app.baseUrl)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: from, agent: false }, (incoming) => {
      let text = ''
      incoming.on('data', (chunk: Buffer) => (text += chunk.toString()))
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text }))
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

function expectRateLimited(answer: Answer): void {
  expect(answer.status).toBe(429)
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  expect(JSON.parse(answer.body)).toMatchObject({ data: null, success: false, error: { code: 'rate_limited', details: { retryAfterSeconds: expect.any(Number) } } })
}

/** Sends `count` requests at once: the burst of five passes, the rest are 429. */
async function exhaust(count: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const answers = await Promise.all(Array.from({ length: count }, send))
  const limited = answers.filter((answer) => answer.status === 429)
  expect(limited).toHaveLength(count - 5)
  for (const answer of limited) expectRateLimited(answer)
  return answers.filter((answer) => answer.status !== 429)
}

describe('requests without a valid key are limited per client address', () => {
  test('hosted pages: the burst is served, then 429 with the envelope and Retry-After; valid keys still pass', async () => {
    const from = '127.0.0.2'
    const served = await exhaust(15, () => send(from, 'GET', '/checkout/cs_nothing_here'))
    for (const answer of served) expect(answer.status).toBe(404)

    // The same address, now out of tokens: everything keyless is refused, a valid key is not.
    expectRateLimited(await send(from, 'GET', '/checkout/top-up/anything'))
    expectRateLimited(await send(from, 'GET', '/v1/customers'))
    expectRateLimited(await send(from, 'GET', '/v1/customers', { Authorization: 'Bearer bk_test_notakeynotakeynotakey01' }))
    expectRateLimited(await send(from, 'POST', '/graphql', { 'Content-Type': 'application/json' }, JSON.stringify({ query: '{ __typename }' })))
    expectRateLimited(await send(from, 'POST', '/graphql', { 'Content-Type': 'application/json', Authorization: 'Bearer bk_test_notakeynotakeynotakey01' }, '{"query":"{ customers { edges { node { id } } } }"}'))
    expectRateLimited(await send(from, 'POST', '/webhooks/pix/some-token/pix', { 'Content-Type': 'application/json' }, '{"pix":[]}'))
    for (let index = 0; index < 20; index += 1) {
      expect((await send(from, 'GET', '/v1/customers', { Authorization: `Bearer ${app.key}` })).status).toBe(200)
    }
    const graph = await send(from, 'POST', '/graphql', { 'Content-Type': 'application/json', Authorization: `Bearer ${app.key}` }, '{"query":"{ customers(first: 1) { edges { node { id } } } }"}')
    expect(graph.status).toBe(200)
    expect(JSON.parse(graph.body).errors).toBeUndefined()
    // Probes and the OpenAPI document are not limited.
    expect((await send(from, 'GET', '/healthz')).status).toBe(200)
    expect((await send(from, 'GET', '/v1/openapi.json')).status).toBe(200)
    // Another address is not affected.
    expect((await send('127.0.0.3', 'GET', '/checkout/cs_nothing_here')).status).toBe(404)
  })

  test('refused keys count: the first ones are 401, then 429', async () => {
    const from = '127.0.0.4'
    const answers: Answer[] = []
    for (let index = 0; index < 12; index += 1) {
      answers.push(await send(from, 'GET', '/v1/customers', { Authorization: `Bearer bk_test_wrongwrongwrongwrong${String(index).padStart(2, '0')}` }))
    }
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401])
    for (const answer of answers.slice(5)) expectRateLimited(answer)
  })

  test('GraphQL without a key and with a refused key count alike', async () => {
    const from = '127.0.0.5'
    const served = await exhaust(15, () => send(from, 'POST', '/graphql', { 'Content-Type': 'application/json' }, '{"query":"{ __typename }"}'))
    for (const answer of served) expect(JSON.parse(answer.body)).toEqual({ data: { __typename: 'Query' } })
    const refused = await send('127.0.0.6', 'POST', '/graphql', { 'Content-Type': 'application/json', Authorization: 'Bearer bk_test_wrongwrongwrongwrong00' }, '{"query":"{ customers { edges { node { id } } } }"}')
    expect(JSON.parse(refused.body).errors[0].extensions.code).toBe('unauthorized')
    const afterRefusals = await Promise.all(Array.from({ length: 5 }, () => send('127.0.0.6', 'POST', '/graphql', { 'Content-Type': 'application/json' }, '{"query":"{ __typename }"}')))
    expect(afterRefusals.filter((answer) => answer.status === 429)).toHaveLength(1)
  })
})

describe('KeylessRateLimiter', () => {
  test('tokens refill at the rate, up to the burst', () => {
    const limiter = new KeylessRateLimiter(2, 5)
    for (let index = 0; index < 10; index += 1) expect(limiter.admit('a', 0).allowed).toBe(true)
    expect(limiter.admit('a', 0)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.isExhausted('a', 0)).toBe(true)
    expect(limiter.admit('a', 500).allowed).toBe(true)
    expect(limiter.admit('a', 500).allowed).toBe(false)
    expect(limiter.isExhausted('a', 60_000)).toBe(false)
    expect(new KeylessRateLimiter(0).admit('a').allowed).toBe(true)
  })

  test('memory is bounded: the least recently seen address is dropped first', () => {
    const limiter = new KeylessRateLimiter(1, 1, 3)
    for (const address of ['a', 'b', 'c']) limiter.admit(address, 0)
    limiter.admit('a', 0)
    limiter.admit('d', 0)
    expect(limiter.size).toBe(3)
    // b was dropped (a full bucket again); a, seen again, was kept (still empty).
    expect(limiter.isExhausted('b', 0)).toBe(false)
    expect(limiter.isExhausted('a', 0)).toBe(true)
    for (let index = 0; index < 10_000; index += 1) limiter.admit(`10.0.${index >> 8}.${index & 255}`, 0)
    expect(limiter.size).toBe(3)
  })

  test('IPv6 clients count by their /64; IPv4-mapped addresses as IPv4', () => {
    expect(clientAddressOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(clientAddressOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64')
    expect(clientAddressOf('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientAddressOf('::1')).toBe('0:0:0:0::/64')
    expect(clientAddressOf('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(clientAddressOf('192.0.2.7')).toBe('192.0.2.7')
    expect(clientAddressOf(undefined)).toBe('unknown')
  })

  test('KEYLESS_RATE_LIMIT_PER_SECOND configures it (20 by default, 0 turns it off)', () => {
    expect(readConfiguration({}).keylessRateLimitPerSecond).toBe(20)
    expect(readConfiguration({ KEYLESS_RATE_LIMIT_PER_SECOND: '0' }).keylessRateLimitPerSecond).toBe(0)
  })
})
