import { createServer, Socket, type AddressInfo } from 'node:net'

/** A TCP proxy to the test PostgreSQL that a test can cut and restore: the database "goes away" for real sockets. */
export interface TcpProxy {
  port: number
  cut(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}

/** Listens on `listenPort` when given (a port a client was already told about), else on a free one. */
export async function startTcpProxy(targetHost: string, targetPort: number, listenPort = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let up = true
  const server = createServer((client) => {
    if (!up) return client.destroy()
    const upstream = new Socket()
    upstream.connect(targetPort, targetHost)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => undefined)
    }
    client.pipe(upstream)
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
    async close() {
      up = false
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
