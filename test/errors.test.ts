import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { startTcpProxy } from './support/startTcpProxy'
import { createTestDatabase } from './support/testDatabase'

// Every generic error of CONTRACT.md §1, each produced by a real request, in the documented envelope.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

function expectError(response: { status: number; body: any; headers: Headers }, status: number, code: string) { // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(response.status).toBe(status)
  expect(response.body).toMatchObject({ data: null, success: false, error: { code, message: expect.any(String) } })
  expect(JSON.stringify(response.body)).not.toMatch(/\n\s+at |node_modules|SELECT |INSERT /)
  expect(response.headers.get('x-request-id')).toMatch(/\S/)
}

describe('request errors', () => {
  test('invalid_json: unparseable, or not an object', async () => {
    for (const rawBody of ['{"name": ', '[1,2]', '"text"', 'null']) {
      const response = await app.request('POST', '/v1/customers', { rawBody, headers: { 'Content-Type': 'application/json' }, idempotencyKey: randomUUID() })
      expectError(response, 400, 'invalid_json')
    }
  })

  test('validation_error names the field in param', async () => {
    const response = await app.request('POST', '/v1/customers', { body: { email: 7 }, idempotencyKey: randomUUID() })
    expectError(response, 400, 'validation_error')
    expect(response.body.error.param).toBe('email')
  })

  test('text PostgreSQL cannot store and JSON nested too deep are validation errors, in REST and GraphQL', async () => {
    const nul = await app.request('POST', '/v1/customers', { body: { name: 'a\u0000b' }, idempotencyKey: randomUUID() })
    expectError(nul, 400, 'validation_error')
    expect(nul.body.error.param).toBe('name')
    expectError(await app.request('GET', '/v1/customers/cus_%00'), 400, 'validation_error')
    const deep = JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as unknown
    expectError(await app.request('POST', '/v1/customers', { body: { metadata: deep }, idempotencyKey: randomUUID() }), 400, 'validation_error')
    const graphNul = await app.graphql('mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }', { input: { name: 'a\u0000' } })
    expect(graphNul.body.errors[0].extensions).toMatchObject({ code: 'validation_error', param: 'variables.input.name' })
    const literalNul = await app.graphql('mutation { createCustomer(input: { name: "a\\u0000" }) { id } }')
    expect(literalNul.body.errors[0].extensions.code).toBe('validation_error')
  })

  test('invalid_cursor', async () => {
    expectError(await app.request('GET', '/v1/customers?before=not-a-cursor'), 400, 'invalid_cursor')
  })

  test('idempotency_key_required where SPEC.md marks it', async () => {
    expectError(await app.request('POST', '/v1/customers', { body: { name: 'x' } }), 400, 'idempotency_key_required')
    expectError(await app.request('PATCH', '/v1/customers/cus_x', { body: { name: 'x' } }), 400, 'idempotency_key_required')
  })

  test('unauthorized: missing, malformed, unknown keys, with WWW-Authenticate', async () => {
    for (const headers of [{} as Record<string, string>, { Authorization: 'Basic abc' }, { Authorization: 'Bearer bk_test_unknownunknownunknown1234' }, { Authorization: 'Bearer' }]) {
      const response = await app.request('GET', '/v1/customers', { key: null, headers })
      expectError(response, 401, 'unauthorized')
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
    }
  })

  test('insufficient_scope lists the scopes that would do', async () => {
    const readOnly = await app.createKey({ scopes: ['read'] })
    const response = await app.request('POST', '/v1/customers', { key: readOnly, body: {}, idempotencyKey: randomUUID() })
    expectError(response, 403, 'insufficient_scope')
    expect(response.body.error.details).toEqual({ required: ['write'] })
  })

  test('not_found for unknown routes, method_not_allowed with Allow', async () => {
    expectError(await app.request('GET', '/v1/nothing-here'), 404, 'not_found')
    expectError(await app.request('GET', '/elsewhere'), 404, 'not_found')
    const wrongMethod = await app.request('DELETE', '/v1/customers')
    expectError(wrongMethod, 405, 'method_not_allowed')
    expect(wrongMethod.headers.get('allow')).toBe('POST, GET')
  })

  test('payload_too_large past 1 MiB', async () => {
    const response = await app.request('POST', '/v1/customers', {
      rawBody: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
      idempotencyKey: randomUUID(),
    })
    expectError(response, 413, 'payload_too_large')
  })

  test('unsupported_media_type for a body without application/json', async () => {
    const response = await app.request('POST', '/v1/customers', { rawBody: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, idempotencyKey: randomUUID() })
    expectError(response, 415, 'unsupported_media_type')
  })

  test('idempotency_key_reused: same key, different body', async () => {
    const key = randomUUID()
    expect((await app.request('POST', '/v1/customers', { body: { name: 'first' }, idempotencyKey: key })).status).toBe(201)
    expectError(await app.request('POST', '/v1/customers', { body: { name: 'second' }, idempotencyKey: key }), 422, 'idempotency_key_reused')
  })

  test('idempotency_key_in_use while the first request is still running', async () => {
    // Hold the customers table so that the first request is claimed and then waits inside its transaction.
    const blocker = new pg.Client({ connectionString: app.databaseUrl })
    await blocker.connect()
    await blocker.query('BEGIN')
    await blocker.query('LOCK TABLE "Customer" IN EXCLUSIVE MODE')
    const key = randomUUID()
    const first = app.request('POST', '/v1/customers', { body: { name: 'slow' }, idempotencyKey: key })
    let second
    for (let attempt = 0; attempt < 50; attempt += 1) {
      second = await app.request('POST', '/v1/customers', { body: { name: 'slow' }, idempotencyKey: key })
      if (second.status === 409) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expectError(second!, 409, 'idempotency_key_in_use')
    await blocker.query('COMMIT')
    await blocker.end()
    const finished = await first
    expect(finished.status).toBe(201)
    const replay = await app.request('POST', '/v1/customers', { body: { name: 'slow' }, idempotencyKey: key })
    expect(replay.status).toBe(201)
    expect(replay.body.data.id).toBe(finished.body.data.id)
  })

  test('X-Request-Id on every response; a sane client id is echoed', async () => {
    const echoed = await app.request('GET', '/v1/customers', { headers: { 'X-Request-Id': 'client-abc-123' } })
    expect(echoed.headers.get('x-request-id')).toBe('client-abc-123')
    const replaced = await app.request('GET', '/v1/customers', { headers: { 'X-Request-Id': 'bad id with spaces' } })
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/)
    for (const path of ['/healthz', '/readyz', '/graphql', '/v1/openapi.json', '/nope']) {
      expect((await app.request('GET', path)).headers.get('x-request-id')).toMatch(/\S/)
    }
  })
})

describe('failures on our side', () => {
  test('internal_error: an unexpected failure is masked, with no stack trace or SQL', async () => {
    const broken = await startTestApplication()
    try {
      const created = await broken.request('POST', '/v1/customers', { body: { name: 'x' }, idempotencyKey: randomUUID() })
      const client = new pg.Client({ connectionString: broken.databaseUrl })
      await client.connect()
      // A schema the code does not expect: every read of a customer now fails inside the database layer.
      await client.query('ALTER TABLE "Customer" RENAME COLUMN "name" TO "renamed"')
      await client.end()
      const response = await broken.request('GET', `/v1/customers/${created.body.data.id}`)
      expectError(response, 500, 'internal_error')
      expect(JSON.stringify(response.body)).not.toMatch(/renamed|prisma|does not exist/i)
      const graph = await broken.graphql('query($id: ID!) { customer(id: $id) { name } }', { id: created.body.data.id })
      expect(graph.body.errors[0].extensions.code).toBe('internal_error')
      expect(JSON.stringify(graph.body)).not.toMatch(/renamed|prisma|does not exist/i)
    } finally {
      await broken.close()
    }
  })

  test('unavailable: database down → 503 with Retry-After; the service recovers by itself', async () => {
    const databaseUrl = new URL(await createTestDatabase())
    const proxy = await startTcpProxy(databaseUrl.hostname, Number(databaseUrl.port || 5432))
    const proxiedUrl = new URL(databaseUrl)
    proxiedUrl.hostname = '127.0.0.1'
    proxiedUrl.port = String(proxy.port)
    const flaky = await startTestApplication({ databaseUrl: proxiedUrl.toString() })
    try {
      expect((await flaky.request('GET', '/v1/customers')).status).toBe(200)
      await proxy.cut()
      for (const response of [
        await flaky.request('GET', '/v1/customers'),
        await flaky.request('POST', '/v1/customers', { body: { name: 'x' }, idempotencyKey: randomUUID() }),
      ]) {
        expectError(response, 503, 'unavailable')
        expect(response.headers.get('retry-after')).toBe('1')
      }
      expect((await flaky.request('GET', '/readyz')).status).toBe(503)
      const graph = await flaky.graphql('{ customers { edges { node { id } } } }')
      expect(graph.body.errors[0].extensions.code).toBe('unavailable')

      await proxy.restore()
      const started = Date.now()
      let recovered = await flaky.request('GET', '/v1/customers')
      while (recovered.status !== 200 && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        recovered = await flaky.request('GET', '/v1/customers')
      }
      expect(recovered.status).toBe(200)
      expect((await flaky.request('POST', '/v1/customers', { body: { name: 'after' }, idempotencyKey: randomUUID() })).status).toBe(201)
    } finally {
      await flaky.close()
      await proxy.close()
    }
  })
})

describe('malformed HTTP', () => {
  test('a request the HTTP parser refuses still gets the envelope and a request id', async () => {
    const { connect } = await import('node:net')
    const url = new URL(app.baseUrl)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GET /v1/customers HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n'))
      let text = ''
      socket.on('data', (chunk) => (text += chunk.toString()))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toMatch(/X-Request-Id: req_[0-9a-f]{32}/)
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ data: null, success: false, error: { code: 'validation_error' } })
  })
})
