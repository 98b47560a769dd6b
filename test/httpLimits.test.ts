import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 8 §1: a client trickling its headers or its body, or holding connections open, cannot keep them forever.

let app: TestApplication
beforeAll(async () => {
  app = await startTestApplication({ http: { requestTimeoutMs: 2_000, headersTimeoutMs: 1_000, maxConnections: 5 } })
})
afterAll(async () => {
  await app.close()
})

function open(): Promise<Socket> {
  const { port } = new URL(app.baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket))
    socket.on('error', reject)
  })
}

const closed = (socket: Socket) => new Promise<string>((resolve) => {
  let received = ''
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
  socket.on('error', () => undefined)
  socket.on('close', () => resolve(received))
})

test('a client trickling its headers is cut off after the headers timeout', async () => {
  const socket = await open()
  const answer = closed(socket)
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')
  const trickle = setInterval(() => socket.writable && socket.write('X-Slow: a\r\n'), 200)
  const received = await answer
  clearInterval(trickle)
  // Cut off with an answer (the malformed-request handler envelopes it) instead of held for minutes.
  expect(received).toMatch(/^HTTP\/1\.1 4\d\d/)
})

test('a client trickling its body is cut off by the request timeout, at both doors', async () => {
  for (const path of ['/v1/customers', '/graphql']) {
    const socket = await open()
    const answer = closed(socket)
    // Headers complete (so the headers timeout is out of play), then a body promised at 10,000 bytes, sent a byte at a time.
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.key}\r\nContent-Type: application/json\r\nIdempotency-Key: trickle\r\nContent-Length: 10000\r\n\r\n{`)
    let sent = 1
    const trickle = setInterval(() => {
      if (!socket.writable) return
      socket.write(' ')
      sent += 1
    }, 100)
    await answer
    clearInterval(trickle)
    // Cut off long before the body could have arrived: one byte per 100 ms would take 1,000 seconds.
    expect(sent, path).toBeLessThan(10_000)
  }
  // The server is not held by what it cut off.
  expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200)
}, 30_000)

test('connections beyond the maximum are refused at once', async () => {
  const sockets = await Promise.all(Array.from({ length: 12 }, () => open().catch(() => undefined)))
  const open_ = sockets.filter((socket): socket is Socket => socket !== undefined)
  const outcomes = await Promise.all(
    open_.map(
      (socket) =>
        new Promise<'closed' | 'open'>((resolve) => {
          socket.on('close', () => resolve('closed'))
          socket.on('error', () => undefined)
          setTimeout(() => resolve('open'), 500)
        }),
    ),
  )
  for (const socket of open_) socket.destroy()
  expect(outcomes.filter((outcome) => outcome === 'open').length).toBeLessThanOrEqual(5)
  expect(outcomes.filter((outcome) => outcome === 'closed').length + (12 - open_.length)).toBeGreaterThanOrEqual(7)
})
