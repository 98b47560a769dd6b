import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedWebhook {
  path: string
  headers: Record<string, string>
  body: string
  receivedAt: number
}

/** What the receiver answers to one request: a status (and headers), or nothing until `release` is called. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang'

export interface WebhookReceiver {
  /** `http://127.0.0.1:port` */
  url: string
  received: ReceivedWebhook[]
  /** Decides each answer (default 200); may look at what came before. */
  answer: (request: ReceivedWebhook) => ReceiverAnswer
  /** Requests held open by `hang` right now, and the most there ever were at once. */
  openNow(): number
  maxOpen(): number
  /** Answers every held request with 200. */
  release(): void
  /** Resolves when `predicate` holds for what was received, polling; rejects after `timeoutMs`. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** A real HTTP receiver on 127.0.0.1 that records every request. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const held = new Set<http.ServerResponse>()
  let maxOpen = 0
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: () => ({ status: 200 }),
    openNow: () => held.size,
    maxOpen: () => maxOpen,
    release() {
      for (const response of held) response.writeHead(200).end('released')
      held.clear()
    },
    async waitFor(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`the receiver did not get what was expected within ${timeoutMs} ms; it got ${receiver.received.length} requests`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    close: () =>
      new Promise((resolve) => {
        receiver.release()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]))
      const webhook = { path: request.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() }
      receiver.received.push(webhook)
      const answer = receiver.answer(webhook)
      if (answer === 'hang') {
        held.add(response)
        maxOpen = Math.max(maxOpen, held.size)
        response.on('close', () => held.delete(response))
        return
      }
      const respond = () => response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? 'ok')
      if (answer.delayMs) setTimeout(respond, answer.delayMs)
      else respond()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return receiver
}
