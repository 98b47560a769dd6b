import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { decryptSecret } from '../src/secrets/decryptSecret'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
})
afterAll(async () => {
  await app.close()
})

const account = (mode: 'test' | 'live' = 'test') => app.createKey({ account: `webhooks-${randomUUID().slice(0, 8)}`, mode })
const send = (method: string, path: string, key: string, body?: unknown) =>
  app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
async function ok(method: string, path: string, key: string, body?: unknown) {
  const response = await send(method, path, key, body)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}
async function refused(method: string, path: string, key: string, body: unknown, status: number, code: string, param?: string) {
  const response = await send(method, path, key, body)
  expect(response.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`).toBe(status)
  expect(response.body.error.code).toBe(code)
  if (param !== undefined) expect(response.body.error.param).toBe(param)
}

describe('webhook endpoints', () => {
  test('create shows the secret once; list, get, patch, rotate and delete follow CONTRACT §10', async () => {
    const key = await account()
    const created = await send('POST', '/v1/webhook_endpoints', key, { url: 'HTTP://Example.COM:80/hooks?a=1#frag', events: ['customer.created', 'customer.created'], description: 'CRM' })
    expect(created.status).toBe(201)
    const endpoint = created.body.data
    expect(endpoint).toMatchObject({ url: 'http://example.com/hooks?a=1', events: ['customer.created'], description: 'CRM', status: 'enabled' })
    expect(endpoint.id).toMatch(/^we_[0-9A-Za-z]{24}$/)
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32)

    // Stored encrypted, never shown again.
    const stored = await app.application.services.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })
    expect(stored.secret).not.toContain(endpoint.secret.slice(6))
    expect(decryptSecret(stored.secret)).toBe(endpoint.secret)
    const { secret: _secret, ...shown } = endpoint
    expect(await ok('GET', `/v1/webhook_endpoints/${endpoint.id}`, key)).toEqual(shown)
    const list = await ok('GET', '/v1/webhook_endpoints', key)
    expect(list).toEqual({ items: [shown], hasMore: false, nextCursor: null })
    const graph = await app.graphql('{ webhookEndpoints { edges { node { id secret } } } }', {}, key)
    expect(graph.body.data.webhookEndpoints.edges).toEqual([{ node: { id: endpoint.id, secret: null } }])

    const patched = await ok('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, key, { events: ['*'], description: null, status: 'disabled', url: 'https://example.org/x' })
    expect(patched).toMatchObject({ id: endpoint.id, events: ['*'], description: null, status: 'disabled', url: 'https://example.org/x' })
    expect(patched.secret).toBeUndefined()

    const rotated = await ok('POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, key)
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(endpoint.secret)
    const afterRotation = await app.application.services.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })
    expect(decryptSecret(afterRotation.previousSecret!)).toBe(endpoint.secret)
    expect(afterRotation.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3600 * 1000)

    expect(await ok('GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`, key)).toEqual({ items: [], hasMore: false, nextCursor: null })
    expect(await ok('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, key)).toEqual({ id: endpoint.id, deleted: true })
    await refused('GET', `/v1/webhook_endpoints/${endpoint.id}`, key, undefined, 404, 'webhook_endpoint_not_found')
    await refused('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, key, undefined, 404, 'webhook_endpoint_not_found')
  })

  test('bad input is a 400 naming the field; Idempotency-Key is required on create; other accounts see nothing', async () => {
    const key = await account()
    const noKey = await app.request('POST', '/v1/webhook_endpoints', { key, body: { url: 'http://example.com', events: ['*'] } })
    expect(noKey.status).toBe(400)
    expect(noKey.body.error.code).toBe('idempotency_key_required')
    for (const [body, param] of [
      [{ url: 'ftp://example.com', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: ' http://example.com', events: ['*'] }, 'url'],
      [{ url: 'http://user:pass@example.com', events: ['*'] }, 'url'],
      [{ url: `http://example.com/${'a'.repeat(2100)}`, events: ['*'] }, 'url'],
      [{ url: 'http://example.com', events: [] }, 'events'],
      [{ url: 'http://example.com', events: ['customer.created', 'nope'] }, 'events.1'],
      [{ url: 'http://example.com', events: ['*'], description: 'x'.repeat(501) }, 'description'],
      [{ url: 'http://example.com' }, 'events'],
    ] as const) {
      await refused('POST', '/v1/webhook_endpoints', key, body, 400, 'validation_error', param)
    }
    const endpoint = await ok('POST', '/v1/webhook_endpoints', key, { url: 'http://127.0.0.1:9/x', events: ['*'] })
    await refused('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, key, { status: 'paused' }, 400, 'validation_error')
    await refused('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, key, { secret: 'whsec_x' }, 400, 'validation_error')
    const other = await account()
    expect((await ok('GET', '/v1/webhook_endpoints', other)).items).toEqual([])
    await refused('POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, other, undefined, 404, 'webhook_endpoint_not_found')
    await refused('GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`, other, undefined, 404, 'webhook_endpoint_not_found')
  })

  test('live accounts: https only, and never a host that is or resolves to an internal address', async () => {
    const live = await account('live')
    for (const url of [
      'http://93.184.215.14/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/hook',
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://[::1]/hook',
      'https://[::]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
      'https://[64:ff9b::a00:1]/hook',
    ]) {
      await refused('POST', '/v1/webhook_endpoints', live, { url, events: ['*'] }, 400, 'validation_error', 'url')
    }
    const endpoint = await ok('POST', '/v1/webhook_endpoints', live, { url: 'https://93.184.215.14/hook', events: ['*'] })
    await refused('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, live, { url: 'https://[::1]:8443/x' }, 400, 'validation_error', 'url')
    await refused('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, live, { url: 'http://93.184.215.14/hook' }, 400, 'validation_error', 'url')
    // Test accounts may send to their own machine.
    const test = await account('test')
    expect(await ok('POST', '/v1/webhook_endpoints', test, { url: 'http://localhost:8080/hook', events: ['*'] })).toMatchObject({ url: 'http://localhost:8080/hook' })
  })

  test('at most 16 endpoints per account', async () => {
    const key = await account()
    for (let index = 0; index < 16; index += 1) await ok('POST', '/v1/webhook_endpoints', key, { url: `http://127.0.0.1:9/${index}`, events: ['*'] })
    await refused('POST', '/v1/webhook_endpoints', key, { url: 'http://127.0.0.1:9/17', events: ['*'] }, 409, 'invalid_state')
  })

  test('the secret is not kept in plain text with the idempotent response; a replay with the same key answers identically', async () => {
    const key = await account()
    const prisma = app.application.services.database.prisma
    const storedResponse = async (idempotencyKey: string) =>
      JSON.stringify((await prisma.idempotencyRecord.findFirstOrThrow({ where: { key: idempotencyKey, state: 'completed' } })).responseBody)
    const createKey = randomUUID()
    const body = { url: 'http://127.0.0.1:9/sealed', events: ['*'] }
    const created = await app.request('POST', '/v1/webhook_endpoints', { key, body, idempotencyKey: createKey })
    expect(created.status).toBe(201)
    const secret = created.body.data.secret as string
    expect(secret).toMatch(/^whsec_/)
    const rotateKey = randomUUID()
    const rotated = await app.request('POST', `/v1/webhook_endpoints/${created.body.data.id}/rotate_secret`, { key, idempotencyKey: rotateKey })
    expect(rotated.status).toBe(200)
    const rotatedSecret = rotated.body.data.secret as string

    for (const [idempotencyKey, shown] of [[createKey, secret], [rotateKey, rotatedSecret]] as const) {
      const stored = await storedResponse(idempotencyKey)
      expect(stored).toContain(created.body.data.id)
      expect(stored).not.toContain('whsec_')
      expect(stored).not.toContain(shown.slice('whsec_'.length))
    }
    const createdAgain = await app.request('POST', '/v1/webhook_endpoints', { key, body, idempotencyKey: createKey })
    expect(createdAgain.status).toBe(201)
    expect(createdAgain.headers.get('idempotent-replayed')).toBe('true')
    expect(createdAgain.body).toEqual(created.body)
    const rotatedAgain = await app.request('POST', `/v1/webhook_endpoints/${created.body.data.id}/rotate_secret`, { key, idempotencyKey: rotateKey })
    expect(rotatedAgain.status).toBe(200)
    expect(rotatedAgain.headers.get('idempotent-replayed')).toBe('true')
    expect(rotatedAgain.body).toEqual(rotated.body)
    // The replay rotated nothing: the secret that signs is still the one the first answer showed.
    const endpoint = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.data.id } })
    expect(decryptSecret(endpoint.secret)).toBe(rotatedSecret)
  })

  test('the endpoints list pages both ways and counts over GraphQL; REST pages with limit and before', async () => {
    const key = await account()
    const created: string[] = []
    for (let index = 0; index < 3; index += 1) created.push((await ok('POST', '/v1/webhook_endpoints', key, { url: `http://127.0.0.1:9/${index}`, events: ['*'] })).id)
    const newestFirst = [...created].reverse()
    const page = async (arguments_: string) => {
      const response = await app.graphql(`{ webhookEndpoints(${arguments_}) { totalCount edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, {}, key)
      expect(response.body.errors, arguments_).toBeUndefined()
      return response.body.data.webhookEndpoints
    }
    const first = await page('first: 2')
    expect(first.totalCount).toBe(3)
    expect(first.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(newestFirst.slice(0, 2))
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    const older = await page(`first: 2, after: "${first.pageInfo.endCursor}"`)
    expect(older.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(newestFirst.slice(2))
    expect(older.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
    // Backward from the oldest: the two before it, in list order.
    const back = await page(`last: 2, before: "${older.pageInfo.startCursor}"`)
    expect(back.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(newestFirst.slice(0, 2))
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    expect((await page('last: 1')).edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([created[0]])
    const bad = await app.graphql('{ webhookEndpoints(first: 1, last: 1) { totalCount } }', {}, key)
    expect(bad.body.errors[0].extensions.code).toBe('validation_error')

    const restFirst = await ok('GET', '/v1/webhook_endpoints?limit=2', key)
    expect(restFirst.items.map((item: { id: string }) => item.id)).toEqual(newestFirst.slice(0, 2))
    expect(restFirst.hasMore).toBe(true)
    const restNext = await ok('GET', `/v1/webhook_endpoints?limit=2&before=${encodeURIComponent(restFirst.nextCursor)}`, key)
    expect(restNext).toEqual({ items: [expect.objectContaining({ id: created[0] })], hasMore: false, nextCursor: null })
    // A cursor of one account's list is refused by another's.
    const other = await account()
    await refused('GET', `/v1/webhook_endpoints?before=${encodeURIComponent(restFirst.nextCursor)}`, other, undefined, 400, 'invalid_cursor')
  })
})
