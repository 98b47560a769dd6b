import { randomUUID } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { eventTypes } from '../src/events/eventTypes'
import { systemHostResolver, type HostResolver } from '../src/domain/resolveDestination'
import { startWebhookWorker, type WebhookWorker } from '../src/webhooks/startWebhookWorker'
import { startTestApplication, type TestApplication } from './support/startTestApplication'
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './support/startWebhookReceiver'

// Delivery by the worker the server runs, against real receivers on 127.0.0.1, with a short injected
// schedule: retries after 300, 600 and 900 ms, an endpoint disabled after 60 s of failure, 1 s timeout.
const settings = { retryScheduleMs: [300, 600, 900], disableAfterMs: 60_000, timeoutMs: 1000, pollIntervalMs: 50, concurrency: 16, perEndpointConcurrency: 2 }

// The worker's DNS: names a test registers are answered as that test says (the n-th lookup of the name
// gets answer(n)), as a hostile DNS server would; every other name goes to the system's resolver.
const dnsAnswers = new Map<string, (lookup: number) => { address: string; family: number }[]>()
const dnsLookups = new Map<string, number>()
const resolveHost: HostResolver = async (host) => {
  const answer = dnsAnswers.get(host)
  if (!answer) return systemHostResolver(host)
  const lookup = (dnsLookups.get(host) ?? 0) + 1
  dnsLookups.set(host, lookup)
  return answer(lookup)
}

let app: TestApplication
let worker: WebhookWorker
const receivers: WebhookReceiver[] = []
beforeAll(async () => {
  app = await startTestApplication()
  worker = startWebhookWorker({ pool: app.application.services.database.pool, databaseUrl: app.databaseUrl }, { ...settings, resolveHost })
})
afterAll(async () => {
  await worker.stop()
  for (const receiver of receivers) await receiver.close()
  await app.close()
})

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver()
  receivers.push(started)
  return started
}
const account = (mode: 'test' | 'live' = 'test') => app.createKey({ account: `delivery-${randomUUID().slice(0, 8)}`, mode })
async function ok(method: string, path: string, key: string, body?: unknown) {
  const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}
const endpoint = (key: string, url: string, events: string[] = ['*']) => ok('POST', '/v1/webhook_endpoints', key, { url, events })
const parsed = (webhook: ReceivedWebhook) => JSON.parse(webhook.body) as { id: string; type: string; createdAt: string; data: Record<string, unknown> }
const types = (received: ReceivedWebhook[]) => received.map((webhook) => parsed(webhook).type)
async function attemptsOf(key: string, endpointId: string) {
  return (await ok('GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=500`, key)).items.reverse() as {
    id: string
    eventId: string
    endpointId: string
    attempt: number
    status: string
    responseStatus: number | null
    durationMs: number
    error: string | null
    createdAt: string
  }[]
}
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('delivery', () => {
  test('each event arrives as GET /v1/events/{id} returns it, signed per Standard Webhooks, and the attempt is listed', async () => {
    const key = await account()
    const hooks = await receiver()
    const created = await endpoint(key, `${hooks.url}/hooks`)
    const customer = await ok('POST', '/v1/customers', key, { name: 'Ana' })
    await hooks.waitFor((received) => received.length === 1)
    const [webhook] = hooks.received
    expect(webhook!.path).toBe('/hooks')
    expect(webhook!.headers['content-type']).toBe('application/json')
    // The reference verifier accepts it (signature over id.timestamp.body, timestamp within tolerance).
    expect(new Webhook(created.secret).verify(webhook!.body, webhook!.headers)).toEqual(JSON.parse(webhook!.body))
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(webhook!.body, webhook!.headers)).toThrow()
    expect(() => new Webhook(created.secret).verify(webhook!.body.replace('Ana', 'Bob'), webhook!.headers)).toThrow()
    const event = parsed(webhook!)
    expect(webhook!.headers['webhook-id']).toBe(event.id)
    expect(event).toEqual(await ok('GET', `/v1/events/${event.id}`, key))
    expect(event).toMatchObject({ type: 'customer.created', data: customer })
    expect(webhook!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)

    await until(async () => (await attemptsOf(key, created.id)).length === 1, 'the attempt record')
    const [attempt] = await attemptsOf(key, created.id)
    expect(attempt).toMatchObject({ eventId: event.id, endpointId: created.id, attempt: 1, status: 'succeeded', responseStatus: 200, error: null })
    expect(attempt!.id).toMatch(/^wha_/)
    expect(Math.abs(Number(webhook!.headers['webhook-timestamp']) * 1000 - Date.parse(attempt!.createdAt))).toBeLessThan(1000)
  })

  test('every event type, each produced by its real cause, reaches a "*" endpoint', async () => {
    const key = await account()
    const hooks = await receiver()
    await endpoint(key, hooks.url)
    const customer = await ok('POST', '/v1/customers', key, { name: 'Ana' })
    await ok('PATCH', `/v1/customers/${customer.id}`, key, { email: 'ana@example.com' })
    const meter = await ok('POST', '/v1/usage/meters', key, { name: 'Calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' })
    await ok('POST', '/v1/products', key, { name: 'PAYG', type: 'metered', defaultPrice: { amount: '1', currency: 'USDC', model: 'metered', usageBillingMode: 'credits', meterId: meter.id } })
    const session = await ok('POST', '/v1/checkout/sessions', key, { mode: 'credits', customerId: customer.id, amount: '1.00', currency: 'USDC' })
    await ok('POST', `/v1/test_helpers/checkout/sessions/${session.id}/pay`, key)
    await ok('POST', '/v1/usage/events', key, { customerId: customer.id, meterId: meter.id, quantity: 1, idempotencyKey: randomUUID() })
    const [purchase] = (await ok('GET', '/v1/transactions', key)).items
    await ok('POST', `/v1/transactions/${purchase.id}/refund`, key, {})
    const plan = await ok('POST', '/v1/products', key, { name: 'Pro', type: 'subscription', defaultPrice: { amount: '10', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const subscription = await ok('POST', '/v1/subscriptions', key, { customerId: customer.id, productId: plan.id })
    const [invoice] = (await ok('GET', '/v1/invoices', key)).items
    await ok('POST', `/v1/test_helpers/invoices/${invoice.id}/fail`, key)
    await ok('POST', `/v1/test_helpers/invoices/${invoice.id}/pay`, key)
    await ok('POST', `/v1/subscriptions/${subscription.id}/cancel`, key)
    await ok('POST', '/v1/checkout/sessions', key, { mode: 'credits', customerId: customer.id, amount: '5', currency: 'USDC' })
    await ok('POST', '/v1/test_helpers/clock/advance', key, { seconds: 25 * 3600 })

    const recorded = (await ok('GET', '/v1/events?limit=500', key)).items as { id: string }[]
    await hooks.waitFor((received) => received.length >= recorded.length)
    expect(new Set(types(hooks.received))).toEqual(new Set(eventTypes))
    expect(hooks.received.map((webhook) => webhook.headers['webhook-id']).sort()).toEqual(recorded.map((event) => event.id).sort())
  })

  test('filters by type; a disabled endpoint gets nothing; an endpoint gets no backlog from before it existed', async () => {
    const key = await account()
    const updates = await receiver()
    const everything = await receiver()
    const disabledHooks = await receiver()
    await endpoint(key, updates.url, ['customer.updated'])
    await endpoint(key, everything.url, ['*'])
    const disabled = await endpoint(key, disabledHooks.url, ['*'])
    await ok('PATCH', `/v1/webhook_endpoints/${disabled.id}`, key, { status: 'disabled' })
    const customer = await ok('POST', '/v1/customers', key, { name: 'Ana' })
    await ok('PATCH', `/v1/customers/${customer.id}`, key, { name: 'Ana Maria' })
    await everything.waitFor((received) => received.length === 2)
    await updates.waitFor((received) => received.length === 1)
    const late = await receiver()
    await endpoint(key, late.url, ['*'])
    await ok('PATCH', `/v1/customers/${customer.id}`, key, { name: 'Ana M.' })
    await late.waitFor((received) => received.length === 1)
    await everything.waitFor((received) => received.length === 3)
    await updates.waitFor((received) => received.length === 2)
    expect(types(updates.received)).toEqual(['customer.updated', 'customer.updated'])
    expect(types(everything.received).sort()).toEqual(['customer.created', 'customer.updated', 'customer.updated'])
    expect(types(late.received)).toEqual(['customer.updated'])
    expect(disabledHooks.received).toEqual([])
    expect(await attemptsOf(key, disabled.id)).toEqual([])
  })

  test('failures are retried on the injected schedule, each attempt recorded; a 3xx is a failure and is not followed', async () => {
    const key = await account()
    const hooks = await receiver()
    const target = await receiver()
    let calls = 0
    hooks.answer = () => {
      calls += 1
      if (calls === 1) return { status: 500, body: 'down for maintenance' }
      if (calls === 2) return { status: 302, headers: { location: `${target.url}/elsewhere` } }
      if (calls === 3) return 'hang'
      return { status: 204 }
    }
    const created = await endpoint(key, hooks.url)
    await ok('POST', '/v1/customers', key, { name: 'Retry' })
    await until(async () => (await attemptsOf(key, created.id)).some((attempt) => attempt.status === 'succeeded'), 'a successful attempt')
    const attempts = await attemptsOf(key, created.id)
    expect(attempts.map(({ attempt, status, responseStatus }) => ({ attempt, status, responseStatus }))).toEqual([
      { attempt: 1, status: 'failed', responseStatus: 500 },
      { attempt: 2, status: 'failed', responseStatus: 302 },
      { attempt: 3, status: 'failed', responseStatus: null },
      { attempt: 4, status: 'succeeded', responseStatus: 204 },
    ])
    expect(attempts[0]!.error).toBe('HTTP 500')
    expect(attempts[1]!.error).toContain('redirects are not followed')
    expect(attempts[2]!.error).toContain('no answer within')
    expect(target.received).toEqual([])
    // Never earlier than the schedule says (the n-th retry waits retryScheduleMs[n-1] after the failure before it).
    const starts = attempts.map((attempt) => Date.parse(attempt.createdAt))
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(300)
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(600)
    expect(starts[3]! - starts[2]!).toBeGreaterThanOrEqual(900 + settings.timeoutMs - 50)
    expect(new Set(hooks.received.map((webhook) => webhook.headers['webhook-id'])).size).toBe(1)
    const stored = await app.application.services.database.prisma.webhookAttempt.findFirstOrThrow({ where: { endpointId: created.id, attempt: 1 } })
    expect(stored.responseBody).toBe('down for maintenance')
  })

  test('an endpoint failing longer than the limit is disabled, and what it was owed is given up', async () => {
    const key = await account()
    const hooks = await receiver()
    hooks.answer = () => ({ status: 503 })
    const created = await endpoint(key, hooks.url)
    const prisma = app.application.services.database.prisma
    await ok('POST', '/v1/customers', key, { name: 'Down' })
    await until(async () => (await attemptsOf(key, created.id)).length === 1, 'the first failure')
    const first = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } })
    expect(first.status).toBe('enabled')
    expect(first.failingSince).not.toBeNull()
    // As if the first failure were longer ago than the limit: the next failure disables the endpoint.
    await prisma.webhookEndpoint.update({ where: { id: created.id }, data: { failingSince: new Date(Date.now() - settings.disableAfterMs - 1000) } })
    await until(async () => (await ok('GET', `/v1/webhook_endpoints/${created.id}`, key)).status === 'disabled', 'the endpoint to be disabled')
    const attempts = await attemptsOf(key, created.id)
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    expect(attempts.every((attempt) => attempt.status === 'failed')).toBe(true)
    expect(await prisma.webhookDelivery.count({ where: { endpointId: created.id, status: 'pending' } })).toBe(0)
    const before = hooks.received.length
    await ok('POST', '/v1/customers', key, { name: 'After' })
    expect(await prisma.webhookDelivery.count({ where: { endpointId: created.id } })).toBe(1)
    expect(hooks.received.length).toBe(before)
  })

  test('a success in between starts the failing time afresh', async () => {
    const key = await account()
    const hooks = await receiver()
    let calls = 0
    hooks.answer = () => ((calls += 1) === 1 ? { status: 500 } : { status: 200 })
    const created = await endpoint(key, hooks.url, ['customer.created'])
    await ok('POST', '/v1/customers', key, { name: 'Flaky' })
    const prisma = app.application.services.database.prisma
    await until(async () => (await attemptsOf(key, created.id)).some((attempt) => attempt.status === 'succeeded'), 'the retry to succeed')
    const after = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } })
    expect(after).toMatchObject({ status: 'enabled', failingSince: null })
  })

  test('a delivery that fails once more than the schedule allows is given up', async () => {
    const key = await account()
    const hooks = await receiver()
    hooks.answer = () => ({ status: 500 })
    const created = await endpoint(key, hooks.url, ['customer.created'])
    const prisma = app.application.services.database.prisma
    await ok('POST', '/v1/customers', key, { name: 'Gone' })
    await until(async () => (await prisma.webhookDelivery.findFirst({ where: { endpointId: created.id } }))?.status === 'failed', 'the delivery to be given up')
    expect((await attemptsOf(key, created.id)).map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4])
    expect(hooks.received).toHaveLength(4)
    expect((await ok('GET', `/v1/webhook_endpoints/${created.id}`, key)).status).toBe('enabled')
  })

  test('rotation: both secrets sign for 24 hours, then only the new one', async () => {
    const key = await account()
    const hooks = await receiver()
    const created = await endpoint(key, hooks.url)
    const rotated = await ok('POST', `/v1/webhook_endpoints/${created.id}/rotate_secret`, key)
    await ok('POST', '/v1/customers', key, { name: 'Rotated' })
    await hooks.waitFor((received) => received.length === 1)
    const [during] = hooks.received
    expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(new Webhook(created.secret).verify(during!.body, during!.headers)).toBeTruthy()
    expect(new Webhook(rotated.secret).verify(during!.body, during!.headers)).toBeTruthy()

    // 24 hours later (the expiry moved to the past), the old secret no longer signs.
    await app.application.services.database.prisma.webhookEndpoint.update({ where: { id: created.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } })
    await ok('POST', '/v1/customers', key, { name: 'After rotation' })
    await hooks.waitFor((received) => received.length === 2)
    const after = hooks.received[1]!
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1)
    expect(new Webhook(rotated.secret).verify(after.body, after.headers)).toBeTruthy()
    expect(() => new Webhook(created.secret).verify(after.body, after.headers)).toThrow()
  })

  test('redeliver sends an event again to every enabled endpoint that matches it now', async () => {
    const key = await account()
    const hooks = await receiver()
    const other = await receiver()
    const first = await endpoint(key, hooks.url)
    await ok('POST', '/v1/customers', key, { name: 'Again' })
    await hooks.waitFor((received) => received.length === 1)
    const second = await endpoint(key, other.url, ['customer.created'])
    await endpoint(key, other.url, ['invoice.paid'])
    const eventId = hooks.received[0]!.headers['webhook-id']!
    const response = await app.request('POST', `/v1/events/${eventId}/redeliver`, { key, body: {} })
    expect(response.status).toBe(202)
    expect(response.body.data).toEqual({ eventId, endpointIds: [first.id, second.id] })
    await hooks.waitFor((received) => received.length === 2)
    await other.waitFor((received) => received.length === 1)
    expect(hooks.received.map((webhook) => webhook.headers['webhook-id'])).toEqual([eventId, eventId])
    expect(other.received[0]!.headers['webhook-id']).toBe(eventId)
    const missing = await app.request('POST', '/v1/events/evt_00000000000000000000000000/redeliver', { key, body: {} })
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('event_not_found')
  })

  test('a receiver that hangs holds only its own slots: other receivers and the API carry on', async () => {
    const key = await account()
    const slow = await receiver()
    const fast = await receiver()
    slow.answer = () => 'hang'
    await endpoint(key, slow.url)
    await endpoint(key, fast.url)
    const count = 12
    for (let index = 0; index < count; index += 1) await ok('POST', '/v1/customers', key, { name: `C${index}` })
    await fast.waitFor((received) => received.length === count)
    expect(slow.openNow()).toBeGreaterThan(0)
    expect(slow.maxOpen()).toBeLessThanOrEqual(settings.perEndpointConcurrency)
    slow.release()
  })

  test('live accounts: an address that turned internal after creation is refused at delivery time, and nothing is sent', async () => {
    const key = await account('live')
    const hooks = await receiver()
    const created = await endpoint(key, 'https://93.184.215.14/hook')
    // As if the name's DNS now answered with this machine (rebinding): the stored URL points inside.
    await app.application.services.database.prisma.webhookEndpoint.update({ where: { id: created.id }, data: { url: `${hooks.url.replace('http:', 'https:')}/hook` } })
    await ok('POST', '/v1/customers', key, { name: 'Live' })
    await until(async () => (await attemptsOf(key, created.id)).length > 0, 'the refused attempt')
    const [attempt] = await attemptsOf(key, created.id)
    expect(attempt).toMatchObject({ status: 'failed', responseStatus: null })
    expect(attempt!.error).toContain('internal address')
    expect(hooks.received).toEqual([])
  })

  test('a hung receiver with a backlog larger than a claim batch does not hold back another account\'s endpoint', async () => {
    const prisma = app.application.services.database.prisma
    const hungKey = await account()
    const hung = await receiver()
    hung.answer = () => 'hang'
    const hungEndpoint = await endpoint(hungKey, hung.url, ['customer.created'])
    // More due deliveries than one claim looks at when the worker's whole concurrency is free (4 × 16).
    const backlog = 100
    for (let batch = 0; batch < backlog / 10; batch += 1) {
      await Promise.all(Array.from({ length: 10 }, (_, index) => ok('POST', '/v1/customers', hungKey, { name: `Backlog ${batch}-${index}` })))
    }
    await hung.waitFor(() => hung.openNow() === settings.perEndpointConcurrency)

    const healthyKey = await account()
    const healthy = await receiver()
    await endpoint(healthyKey, healthy.url, ['customer.created'])
    const customer = await ok('POST', '/v1/customers', healthyKey, { name: 'Healthy' })
    // Behind the backlog (two attempts per 1 s timeout), the event would wait for about 50 s.
    await healthy.waitFor((received) => received.length === 1, 15_000)
    expect(parsed(healthy.received[0]!).data.id).toBe(customer.id)
    expect(await prisma.webhookDelivery.count({ where: { endpointId: hungEndpoint.id, status: 'pending' } })).toBeGreaterThan(4 * settings.concurrency)
    expect(hung.maxOpen()).toBeLessThanOrEqual(settings.perEndpointConcurrency)
    // Its backlog is given up, so that it does not keep the worker busy for the tests after this one.
    await ok('PATCH', `/v1/webhook_endpoints/${hungEndpoint.id}`, hungKey, { status: 'disabled' })
    hung.release()
  })

  test('live accounts: a host name that resolves to an internal address, or to a public and an internal one, is refused at delivery', async () => {
    const key = await account('live')
    const prisma = app.application.services.database.prisma
    dnsAnswers.set('internal.hooks.example', () => [{ address: '10.20.30.40', family: 4 }])
    dnsAnswers.set('mixed.hooks.example', () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::ffff:169.254.169.254', family: 6 },
    ])
    for (const host of ['internal.hooks.example', 'mixed.hooks.example']) {
      const created = await endpoint(key, 'https://93.184.215.14/hook', ['customer.created'])
      // The name is stored as if it had pointed outside when it was set; its DNS answers as above now.
      await prisma.webhookEndpoint.update({ where: { id: created.id }, data: { url: `https://${host}/hook` } })
      await ok('POST', '/v1/customers', key, { name: host })
      await until(async () => (await attemptsOf(key, created.id)).length > 0, `the refused attempt to ${host}`)
      const [attempt] = await attemptsOf(key, created.id)
      expect(attempt, host).toMatchObject({ status: 'failed', responseStatus: null })
      expect(attempt!.error, host).toContain('internal address')
      expect(dnsLookups.get(host), host).toBeGreaterThanOrEqual(1)
      await ok('PATCH', `/v1/webhook_endpoints/${created.id}`, key, { status: 'disabled' })
    }
  })

  test('the connection goes to the address that was looked up once: a second, different DNS answer is never used', async () => {
    const key = await account()
    const hooks = await receiver()
    const port = new URL(hooks.url).port
    // The first answer is the receiver; any later lookup would get 127.0.0.2, where nothing listens.
    dnsAnswers.set('pinned.hooks.example', (lookup) => [{ address: lookup === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }])
    const created = await endpoint(key, `http://pinned.hooks.example:${port}/hook`, ['customer.created'])
    await ok('POST', '/v1/customers', key, { name: 'Pinned' })
    await hooks.waitFor((received) => received.length === 1)
    expect(hooks.received[0]!.headers.host).toBe(`pinned.hooks.example:${port}`)
    await until(async () => (await attemptsOf(key, created.id)).length === 1, 'the attempt record')
    expect((await attemptsOf(key, created.id))[0]).toMatchObject({ status: 'succeeded', responseStatus: 200 })
    expect(dnsLookups.get('pinned.hooks.example')).toBe(1)
  })

  test('an answer longer than the bound is kept as its first 1 KiB, cut before a character the bound would split', async () => {
    const key = await account()
    const hooks = await receiver()
    // 1 + 2 × 511 bytes fill 1023 of the 1024: the 512th "é" would be split.
    hooks.answer = () => ({ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `a${'é'.repeat(3000)}` })
    const created = await endpoint(key, hooks.url, ['customer.created'])
    await ok('POST', '/v1/customers', key, { name: 'Verbose receiver' })
    await until(async () => (await attemptsOf(key, created.id)).length === 1, 'the attempt record')
    const stored = await app.application.services.database.prisma.webhookAttempt.findFirstOrThrow({ where: { endpointId: created.id } })
    expect(stored.responseBody).toBe(`a${'é'.repeat(511)}`)
    expect(Buffer.byteLength(stored.responseBody!)).toBeLessThanOrEqual(1024)
    expect(stored.responseBody).not.toContain('\uFFFD')
  })

  test('an endpoint\'s deliveries page both ways and count over GraphQL; another endpoint\'s attempts are not among them', async () => {
    const key = await account()
    const hooks = await receiver()
    const created = await endpoint(key, hooks.url, ['customer.created'])
    const other = await endpoint(key, hooks.url, ['customer.created'])
    await ok('POST', '/v1/customers', key, { name: 'Paged' })
    await until(async () => (await attemptsOf(key, created.id)).length === 1, 'the first attempt')
    const eventId = (await attemptsOf(key, created.id))[0]!.eventId
    for (let index = 0; index < 2; index += 1) await ok('POST', `/v1/events/${eventId}/redeliver`, key, {})
    await until(async () => (await attemptsOf(key, created.id)).length === 3, 'the redelivered attempts')
    const newestFirst = (await attemptsOf(key, created.id)).map((attempt) => attempt.id).reverse()
    const page = async (arguments_: string) => {
      const response = await app.graphql(
        `query($id: ID!) { webhookEndpointDeliveries(endpointId: $id, ${arguments_}) { totalCount edges { node { id endpointId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
        { id: created.id },
        key,
      )
      expect(response.body.errors, arguments_).toBeUndefined()
      return response.body.data.webhookEndpointDeliveries
    }
    const last = await page('last: 2')
    expect(last.totalCount).toBe(3)
    expect(last.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(newestFirst.slice(1))
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true })
    const before = await page(`last: 2, before: "${last.pageInfo.startCursor}"`)
    expect(before.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(newestFirst.slice(0, 1))
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    // A cursor is bound to its endpoint's list.
    const foreign = await app.graphql(
      `query($id: ID!, $cursor: String) { webhookEndpointDeliveries(endpointId: $id, first: 1, after: $cursor) { totalCount } }`,
      { id: other.id, cursor: last.pageInfo.endCursor },
      key,
    )
    expect(foreign.body.errors[0].extensions.code).toBe('invalid_cursor')
    const stranger = await account()
    const hidden = await app.request('GET', `/v1/webhook_endpoints/${created.id}/deliveries`, { key: stranger })
    expect(hidden.status).toBe(404)
    expect(hidden.body.error).toMatchObject({ code: 'webhook_endpoint_not_found', param: 'endpointId' })
  })
})
