import { createServer, Socket, type AddressInfo } from 'node:net'

/**
 * A TCP proxy to a test server (PostgreSQL, a chain node) that a test can cut and restore: the server
 * "goes away" for real sockets. Or it can hang: connections are accepted and requests go unanswered
 * until resumed, as a node that stops answering mid-request does.
 */
export interface TcpProxy {
  port: number
  cut(): Promise<void>
  restore(): Promise<void>
  /** From now on, bytes from clients are held (connections stay open, nothing is answered) until resume(). */
  pause(): void
  /** Pauses at the first client bytes that contain `text`, holding them too; resolves when that happened. */
  pauseOn(text: string): Promise<void>
  /** Sends what was held, in order, and forwards again. */
  resume(): void
  /** Everything forwarded from clients so far, as text (which requests the server received). */
  forwarded(): string
  close(): Promise<void>
}

/** Listens on `listenPort` when given (a port a client was already told about), else on a free one. */
export async function startTcpProxy(targetHost: string, targetPort: number, listenPort = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let up = true
  let paused = false
  let trigger: { text: string; reached: () => void } | undefined
  const held: { upstream: Socket; chunk: Buffer }[] = []
  let forwardedText = ''
  const forward = (upstream: Socket, chunk: Buffer) => {
    if (!paused && trigger && chunk.toString('latin1').includes(trigger.text)) {
      paused = true
      trigger.reached()
      trigger = undefined
    }
    if (paused) return held.push({ upstream, chunk })
    forwardedText += chunk.toString('latin1')
    if (!upstream.destroyed) upstream.write(chunk)
  }
  const server = createServer((client) => {
    if (!up) return client.destroy()
    const upstream = new Socket()
    upstream.connect(targetPort, targetHost)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => undefined)
    }
    client.on('data', (chunk: Buffer) => forward(upstream, chunk))
    upstream.pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    async cut() {
      up = false
      for (const socket of sockets) socket.destroy()
    },
    async restore() {
      up = true
    },
    pause() {
      paused = true
    },
    pauseOn(text) {
      return new Promise<void>((resolve) => (trigger = { text, reached: resolve }))
    },
    resume() {
      paused = false
      for (const { upstream, chunk } of held.splice(0)) forward(upstream, chunk)
    },
    forwarded: () => forwardedText,
    async close() {
      up = false
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
