import { request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { DomainError } from '../../domain/DomainError'
import { enterPixCallGate } from './enterPixCallGate'
import { pixOperationLabel, pixOutcome, pixRequestDuration } from '../../metrics/paymentProviderMetrics'

// The account's PSP through the Central Bank's API Pix. One client serves every PSP: OAuth2 client
// credentials (token cached until shortly before it expires, renewed at once when the PSP refuses
// it), optional mutual TLS, RFC 7807 errors mapped to `provider_error` (502) with the PSP's own
// message, and a PSP that cannot be reached (refused, reset, timed out, 503) mapped to `unavailable`.

export interface PixConnection {
  /** Keys the token cache: a new configuration never reuses the old credentials' token. */
  cacheKey: string
  /** Whose calls share one bound on calls in flight (enterPixCallGate): the account; the cache key when absent. */
  gateKey?: string | undefined
  apiUrl: string
  clientId: string
  clientSecret: string
  tls?: { certificate: string; key: string; ca?: string | undefined } | undefined
}

/** A refusal by the PSP, with what it said (its problem+json `title`/`detail`). */
export class PixProviderError extends DomainError {
  constructor(
    message: string,
    readonly providerStatus: number,
    readonly providerType: string | undefined,
  ) {
    super('provider_error', message, { details: { providerStatus, ...(providerType ? { providerType } : {}) } })
  }
}

interface CachedToken {
  token: string
  renewAt: number
}

const tokens = new Map<string, CachedToken>()
const defaultTimeoutMilliseconds = 10_000
const maxResponseBytes = 8 * 1024 * 1024

export class PixClient {
  private readonly agent: HttpsAgent | undefined

  constructor(
    private readonly connection: PixConnection,
    private readonly timeoutMilliseconds = defaultTimeoutMilliseconds,
  ) {
    const tls = connection.tls
    this.agent = tls ? new HttpsAgent({ cert: tls.certificate, key: tls.key, ...(tls.ca ? { ca: tls.ca } : {}), keepAlive: true }) : undefined
  }

  close(): void {
    this.agent?.destroy()
  }

  /** An API call with a bearer token; a refused token is dropped and the call made once more with a fresh one. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const leave = await enterPixCallGate(this.connection.gateKey ?? this.connection.cacheKey)
    try {
      const first = await this.send(method, path, await this.token(), body)
      if (first.status !== 401 && first.status !== 403) return this.answer<T>(first)
      tokens.delete(this.connection.cacheKey)
      return this.answer<T>(await this.send(method, path, await this.token(), body))
    } finally {
      leave()
    }
  }

  /** A fresh token (never the cached one): proves the credentials when a provider is configured. */
  async checkCredentials(): Promise<void> {
    const leave = await enterPixCallGate(this.connection.gateKey ?? this.connection.cacheKey)
    try {
      tokens.delete(this.connection.cacheKey)
      await this.token()
    } finally {
      leave()
    }
  }

  private async token(): Promise<string> {
    const cached = tokens.get(this.connection.cacheKey)
    if (cached && cached.renewAt > Date.now()) return cached.token
    const basic = Buffer.from(`${this.connection.clientId}:${this.connection.clientSecret}`).toString('base64')
    const response = await this.exchange('POST', '/oauth/token', { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials')
    if (response.status === 401 || response.status === 403) throw new PixProviderError('The PSP refused the client id and secret', response.status, problemType(response.body))
    const granted = this.answer<{ access_token?: unknown; expires_in?: unknown }>(response)
    if (typeof granted.access_token !== 'string' || granted.access_token === '') throw new PixProviderError('The PSP answered the token request without an access_token', response.status, undefined)
    const lifetimeSeconds = typeof granted.expires_in === 'number' && granted.expires_in > 0 ? granted.expires_in : 60
    // Renewed a minute early (or at 80% of a short lifetime), so a call never leaves with a token about to lapse.
    const marginSeconds = Math.min(60, lifetimeSeconds * 0.2)
    tokens.set(this.connection.cacheKey, { token: granted.access_token, renewAt: Date.now() + (lifetimeSeconds - marginSeconds) * 1000 })
    return granted.access_token
  }

  private send(method: string, path: string, token: string, body: unknown) {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    return this.exchange(method, path, headers, body === undefined ? undefined : JSON.stringify(body))
  }

  private answer<T>(response: { status: number; body: unknown }): T {
    if (response.status >= 200 && response.status < 300) return response.body as T
    if (response.status === 503 || response.status === 502 || response.status === 504) {
      throw new DomainError('unavailable', 'The PIX provider is unavailable; try again shortly')
    }
    const problem = (typeof response.body === 'object' && response.body !== null ? response.body : {}) as { title?: unknown; detail?: unknown }
    const said = [problem.title, problem.detail].filter((part): part is string => typeof part === 'string' && part !== '').join(': ')
    throw new PixProviderError(`The PIX provider refused the request (${response.status})${said ? `: ${said.slice(0, 500)}` : ''}`, response.status, problemType(response.body))
  }

  private exchange(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; body: unknown }> {
    const url = new URL(`${this.connection.apiUrl.replace(/\/$/, '')}${path}`)
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const endTimer = pixRequestDuration.startTimer({ operation: pixOperationLabel(method, path) })
    return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const unreachable = () => reject(new DomainError('unavailable', 'The PIX provider cannot be reached; try again shortly'))
      const outgoing = send(
        url,
        {
          method,
          headers: { ...headers, ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }) },
          ...(this.agent && url.protocol === 'https:' ? { agent: this.agent } : {}),
          timeout: this.timeoutMilliseconds,
        },
        (incoming: IncomingMessage) => {
          const chunks: Buffer[] = []
          let size = 0
          incoming.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > maxResponseBytes) return outgoing.destroy(new Error('response too large'))
            chunks.push(chunk)
          })
          incoming.on('error', unreachable)
          incoming.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            let parsed: unknown
            try {
              parsed = text === '' ? undefined : JSON.parse(text)
            } catch {
              parsed = undefined
            }
            resolve({ status: incoming.statusCode ?? 0, body: parsed })
          })
        },
      )
      outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')))
      outgoing.on('error', unreachable)
      outgoing.end(body)
    }).then(
      (response) => {
        endTimer({ outcome: pixOutcome(response.status) })
        return response
      },
      (error: unknown) => {
        endTimer({ outcome: 'unreachable' })
        throw error
      },
    )
  }
}

function problemType(body: unknown): string | undefined {
  const type = (body as { type?: unknown } | undefined)?.type
  return typeof type === 'string' ? type.split('/').pop() : undefined
}
