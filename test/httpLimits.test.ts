import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 8 §1: a client trickling its headers, or holding connections open, cannot keep them forever.

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
