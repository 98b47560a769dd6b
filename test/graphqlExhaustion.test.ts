import { randomBytes } from 'node:crypto'
import { getIntrospectionQuery } from 'graphql'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { defaultQueryLimits } from '../src/graphql/queryLimits'
import { spawnServer, type ServerProcess } from './support/spawnServer'
import { createTestDatabase } from './support/testDatabase'

// Attacks on one real server process with the heap cap of `npm start` (256 MB): each must be
// answered with an error in the envelope, and the process must still answer afterwards.

const heapCap = '--max-old-space-size=256'

describe('GraphQL documents cannot exhaust the server', () => {
  let server: ServerProcess
  const key = `bk_test_${randomBytes(16).toString('hex')}`

  beforeAll(async () => {
    server = await spawnServer({
      DATABASE_URL: await createTestDatabase(),
      BILLING_BOOTSTRAP_KEY: key,
      RATE_LIMIT_PER_SECOND: '0',
      // These documents are sent without a key far faster than the keyless limit allows: the heap is under test here.
      KEYLESS_RATE_LIMIT_PER_SECOND: '0',
      BILLING_INTERVAL_SECONDS: '0',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${heapCap}`,
    })
  }, 90_000)
  afterAll(async () => {
    await server?.stop('SIGKILL')
  })

  async function postGraphQL(body: string, authorization?: string): Promise<{ status: number; body: { errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown } }> {
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: `Bearer ${authorization}` } : {}) },
      body,
    })
    return { status: response.status, body: (await response.json()) as never }
  }

  async function expectServerAlive(): Promise<void> {
    expect(server.child.exitCode).toBeNull()
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
    const answer = await postGraphQL(JSON.stringify({ query: '{ customers(first: 1) { edges { node { id } } } }' }), key)
    expect(answer.body.errors).toBeUndefined()
    expect(server.output()).not.toMatch(/heap limit|Maximum call stack/i)
  }

  test('a hundred different 53 KB documents of 3,000 aliases, without a key: each a 400, the heap holds', async () => {
    for (let index = 0; index < 100; index += 1) {
      const aliases = Array.from({ length: 3000 }, (_, alias) => `a${alias}_${index}:__typename`).join(' ')
      const answer = await postGraphQL(JSON.stringify({ query: `{ ${aliases} }` }))
      expect(answer.status).toBe(400)
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('validation_error')
      expect(answer.body.errors?.[0]?.message).toMatch(/tokens/)
    }
    await expectServerAlive()
  }, 120_000)

  test('documents just within the token limit are parsed and cached, and the cache stays bounded', async () => {
    // Each is distinct, so each is parsed and cached anew (the cache keeps what parses, valid or
    // not): 500 of them are about 250 MB of syntax trees unless the cache weighs them.
    const values = Array.from({ length: defaultQueryLimits.maxTokens - 20 }, () => '1').join(' ')
    for (let index = 0; index < 500; index += 1) {
      const answer = await postGraphQL(JSON.stringify({ query: `query Q${index} { __typename(padding: [${values}]) }` }))
      expect(answer.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/Unknown argument/), extensions: { code: 'validation_error' } })
    }
    await expectServerAlive()
  }, 120_000)

  test('the standard introspection query is within the document limits', async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true })
    const answer = await postGraphQL(JSON.stringify({ query }), key)
    expect(JSON.stringify(answer.body.errors ?? [])).not.toMatch(/tokens|brackets/)
  })

  test('3,000 levels of nesting without a key: a 400 in the envelope, no stack overflow', async () => {
    const nested = `${'{ a '.repeat(3000)}${'}'.repeat(3000)}`
    const answer = await postGraphQL(JSON.stringify({ query: nested }))
    expect(answer.status).toBe(400)
    expect(answer.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/nests/), extensions: { code: 'validation_error' } })
    const inList = `{ node(id: ${'['.repeat(3000)}${']'.repeat(3000)}) { id } }`
    expect((await postGraphQL(JSON.stringify({ query: inList }))).status).toBe(400)
    await expectServerAlive()
  })

  test('a /graphql body over its limit is a 413 in the envelope, also when it is sent in chunks', async () => {
    const declared = await postGraphQL(JSON.stringify({ query: `{ __typename }`, variables: { padding: 'x'.repeat(defaultQueryLimits.maxBodyBytes) } }))
    expect(declared.status).toBe(413)
    const chunked = await sendChunked('/graphql', 4 * 1024 * 1024)
    expect(chunked.status).toBe(413)
    expect(chunked.body).toMatchObject({ data: null, success: false, error: { code: 'payload_too_large' } })
    await expectServerAlive()
  })

  test('a chunked REST body over 1 MiB is a 413 in the envelope', async () => {
    const chunked = await sendChunked('/v1/customers', 4 * 1024 * 1024)
    expect(chunked.status).toBe(413)
    expect(chunked.body).toMatchObject({ data: null, success: false, error: { code: 'payload_too_large' } })
    await expectServerAlive()
  })

  /** A JSON body of about `size` bytes sent with chunked transfer encoding (no Content-Length). */
  async function sendChunked(path: string, size: number): Promise<{ status: number; body: unknown }> {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"query":"{ __typename }","name":"'))
      },
      pull(controller) {
        if (sent >= size) {
          controller.enqueue(new TextEncoder().encode('"}'))
          controller.close()
          return
        }
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, 'Idempotency-Key': randomBytes(8).toString('hex') },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(response.headers.get('content-length')).not.toBeNull()
    return { status: response.status, body: await response.json() }
  }
})
