import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { DomainError } from '../domain/DomainError'
import { resolveDestination, systemHostResolver, type HostResolver } from '../domain/resolveDestination'

export interface SendOutcome {
  ok: boolean
  /** Why it failed, for the attempt record and the metrics. */
  outcome: 'succeeded' | 'http_error' | 'timeout' | 'network_error' | 'refused_address'
  responseStatus: number | null
  error: string | null
  /** The first bytes of the answer, as text. */
  bodyExcerpt: string | null
}

const excerptBytes = 1024

/**
 * POSTs one signed delivery. The host is resolved here and, on live accounts, every address checked
 * (resolveDestination); the connection goes to that checked address, so a DNS answer that changes
 * between the check and the connection (rebinding) cannot reach an internal one. Redirects are never
 * followed: a 3xx is a failure like any other non-2xx. Everything, DNS included, fits in `timeoutMs`.
 * The host is looked up once per attempt, by `resolveHost`.
 */
export async function sendWebhook(
  urlText: string,
  mode: 'test' | 'live',
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  resolveHost: HostResolver = systemHostResolver,
): Promise<SendOutcome> {
  const deadline = Date.now() + timeoutMs
  const url = new URL(urlText)
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  try {
    const destination = await Promise.race([resolveDestination(url, mode, 'url', resolveHost), timedOut])
    if (destination === 'timeout') return failure('timeout', null, `no answer within ${timeoutMs} ms (DNS)`)
    return await post(url, destination, headers, body, deadline - Date.now())
  } catch (error) {
    if (error instanceof DomainError) return failure('refused_address', null, error.message)
    return failure('network_error', null, describe(error))
  } finally {
    clearTimeout(timer)
  }
}

function post(url: URL, destination: { address: string; family: 4 | 6 }, headers: Record<string, string>, body: string, remainingMs: number): Promise<SendOutcome> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [destination])
    else callback(null, destination.address, destination.family)
  }
  return new Promise((resolve) => {
    let status: number | null = null
    const chunks: Buffer[] = []
    let received = 0
    let settled = false
    const finish = (outcome: SendOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      request.destroy()
      resolve(outcome)
    }
    const answered = () => {
      const excerpt = excerptOf(Buffer.concat(chunks))
      const code = status ?? 0
      if (code >= 200 && code < 300) finish({ ok: true, outcome: 'succeeded', responseStatus: code, error: null, bodyExcerpt: excerpt })
      else if (code >= 300 && code < 400) finish({ ...failure('http_error', code, `HTTP ${code}: redirects are not followed`), bodyExcerpt: excerpt })
      else finish({ ...failure('http_error', code, `HTTP ${code}`), bodyExcerpt: excerpt })
    }
    const client = url.protocol === 'https:' ? https : http
    const request = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'billing-service-webhooks/1' },
        agent: false,
        lookup: pinned,
      },
      (response) => {
        status = response.statusCode ?? 0
        response.on('data', (chunk: Buffer) => {
          if (received < excerptBytes) chunks.push(chunk)
          received += chunk.length
          // Enough for the record: the rest of a large answer is not waited for.
          if (received >= excerptBytes) answered()
        })
        response.on('end', answered)
        response.on('error', answered)
      },
    )
    const timer = setTimeout(() => {
      // A status that came in time decides; a body still trickling in does not hold the attempt.
      if (status !== null) answered()
      else finish(failure('timeout', null, `no answer within ${Math.round(remainingMs)} ms`))
    }, Math.max(0, remainingMs))
    request.on('error', (error) => {
      if (status !== null) answered()
      else finish(failure('network_error', null, describe(error)))
    })
    request.end(body)
  })
}

/**
 * At most `excerptBytes` of the answer as text. A character cut by the bound is left out whole (a
 * streaming decode holds back an incomplete sequence), so the excerpt is well-formed and never ends
 * in a replacement character; U+0000, which PostgreSQL text cannot hold, is dropped.
 */
function excerptOf(answer: Buffer): string {
  return new TextDecoder('utf-8').decode(answer.subarray(0, excerptBytes), { stream: true }).replaceAll('\u0000', '')
}

function failure(outcome: SendOutcome['outcome'], responseStatus: number | null, error: string): SendOutcome {
  return { ok: false, outcome, responseStatus, error: error.slice(0, 500), bodyExcerpt: null }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message
}
