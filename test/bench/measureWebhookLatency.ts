import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface WebhookLatency {
  events: number
  delivered: number
  p50: number
  p99: number
}

/**
 * Delivery latency from commit to receipt: a receiver on 127.0.0.1 behind a webhook endpoint, and
 * `events` customer creations from `clients` concurrent clients. Each event's latency is its
 * receipt time minus its `createdAt` (written inside the transaction, just before the commit, on the
 * same machine's clock), so it slightly overstates commit → receipt.
 */
export async function measureWebhookLatency(baseUrl: string, key: string, events = 400, clients = 4): Promise<WebhookLatency> {
  const latencies: number[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const receivedAt = Date.now()
      latencies.push(receivedAt - Date.parse((JSON.parse(body) as { createdAt: string }).createdAt))
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const call = async (route: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: string } }).data
  }
  try {
    const endpoint = await call('/v1/webhook_endpoints', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`, events: ['customer.created'] })
    let next = 0
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < events) {
          next += 1
          await call('/v1/customers', { name: `webhook-bench-${next}` })
        }
      }),
    )
    const deadline = Date.now() + 30_000
    while (latencies.length < events && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    await fetch(`${baseUrl}/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${key}` } })
    const sorted = [...latencies].sort((a, b) => a - b)
    const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? Number.NaN
    return { events, delivered: latencies.length, p50: at(0.5), p99: at(0.99) }
  } finally {
    server.closeAllConnections()
    server.close()
  }
}
