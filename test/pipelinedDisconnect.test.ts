import { randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// A client that pipelines requests and leaves before their answers: Node runs the queued requests but
// never closes their responses, so what they held (response bytes in flight, a process-wide budget)
// must come back when the socket closes, or a few such clients would turn every account away.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication()
  for (let index = 0; index < 150; index += 1) {
    await app.request('POST', '/v1/customers', { idempotencyKey: randomUUID(), body: { email: `pipelined${index}@example.com`, metadata: { note: 'x'.repeat(400) } } })
  }
}, 120_000)
afterAll(async () => {
  await app?.close()
})

function graphqlRequest(query: string): string {
  const body = JSON.stringify({ query })
  return `POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${app.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

test('pipelined requests whose client left give back their response bytes', async () => {
  const budget = app.application.services.responseBytesInFlight
  const slow = `{ ${Array.from({ length: 25 }, (_, index) => `a${index}: customers(first: 100) { edges { node { id email metadata } } }`).join(' ')} }`
  const queued = `{ ${Array.from({ length: 20 }, (_, index) => `b${index}: customers(first: 150) { edges { node { id email metadata } } }`).join(' ')} }`
  const port = Number(new URL(app.baseUrl).port)
  const take = budget.tryTake.bind(budget)
  let taken = 0
  budget.tryTake = (bytes, holder) => {
    const granted = take(bytes, holder)
    if (granted) taken += bytes
    return granted
  }
  for (const leaveAfter of [2, 5, 10, 20, 40, 80]) {
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(graphqlRequest(slow) + graphqlRequest(queued))
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, leaveAfter)
      })
      socket.on('error', () => undefined)
    })
  }
  // The queued requests may still be running when their sockets close: their bytes come back then too.
  await new Promise((resolve) => setTimeout(resolve, 2000))
  expect(taken).toBeGreaterThan(0)
  await expect.poll(() => budget.inFlight, { timeout: 20_000, interval: 100 }).toBe(0)
  const after = await app.graphql(queued)
  expect(after.status).toBe(200)
  expect(after.body.errors).toBeUndefined()
}, 60_000)
