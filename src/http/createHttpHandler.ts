import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorResponse, type RestHandler, type RestResponse } from '../../rest/handleRestRequest'
import { successEnvelope } from '../../rest/envelope'
import type { Services } from '../Services'
import { DomainError } from '../domain/DomainError'
import type { YogaServer } from '../graphql/createYogaServer'
import { httpRequestDuration, httpRequests, methodLabel, unmatchedRoute } from '../metrics/httpMetrics'
import { serveMetrics } from '../metrics/serveMetrics'
import { receivePixCallback } from '../payments/pix/receivePixCallback'
import { serveDashboard } from '../dashboard/serveDashboard'
import { authenticateApiKey } from '../accounts/authenticateApiKey'
import { systemClock } from '../domain/DomainContext'
import { clientAddressOf } from '../accounts/KeylessRateLimiter'
import { classifyAndLog } from '../logging/log'
import { readGraphiQLAsset } from './readGraphiQLAsset'
import { servePaymentPages } from './servePaymentPages'
import { chooseRequestId, currentRequestFinish, runInRequestScope } from '../logging/requestScope'

export const maxBodyBytes = 1024 * 1024

export interface HttpRoutes {
  services: Services
  yoga: YogaServer
  /** A GraphQL body is a document and its variables: far smaller than a REST body may be. */
  graphqlMaxBodyBytes: number
  rest: RestHandler
  openApiDocument: unknown
  /** GET /metrics exists only when set; scrapers send it as a bearer token. */
  metricsToken?: string | undefined
}

/** Which route served a request: a template, never the raw path (metrics stay bounded). */
interface RouteScope {
  route: string
}

/** The whole HTTP surface: /v1 (REST), /graphql, health probes. Every response carries X-Request-Id. */
export function createHttpHandler(routes: HttpRoutes): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const requestId = chooseRequestId(request.headers['x-request-id'] as string | undefined)
    response.setHeader('X-Request-Id', requestId)
    const scope: RouteScope = { route: unmatchedRoute }
    const endTimer = httpRequestDuration.startTimer()
    response.once('close', () => {
      const labels = { route: scope.route, method: methodLabel(request.method ?? ''), status: String(response.statusCode) }
      httpRequests.inc(labels)
      endTimer(labels)
    })
    const clientAddress = clientAddressOf(request.socket.remoteAddress)
    runInRequestScope(
      requestId,
      () => {
        // What the request holds is given back when its response closes, or its socket does: a
        // pipelined request whose response is still queued when the client leaves never sees its
        // response close. The finish runs once, whichever comes first.
        const finish = currentRequestFinish()
        const socket = request.socket
        socket.once('close', finish)
        response.once('close', () => {
          socket.removeListener('close', finish)
          finish()
        })
        admitKeyless(routes.services, request, clientAddress)
          .then((refusal) => {
            if (!refusal) return dispatch(routes, request, response, requestId, scope)
            if (request.method !== 'GET' && request.method !== 'HEAD') discardRestOfBody(request)
            sendResponse(response, errorResponse(refusal))
          })
          .catch((error: unknown) => {
            const classified = classifyAndLog(error)
            if (response.headersSent) return response.destroy()
            sendResponse(response, errorResponse(classified))
          })
      },
      clientAddress,
    )
  }
}

/**
 * The keyless limit at the door (KeylessRateLimiter): hosted pages and the PIX callback, and /graphql
 * and /v1 without an Authorization header, take a token of the client's address; a refused key takes
 * one where it is refused (authenticateCaller). Once the address has none left, a request that sends
 * a key is let through only if the key is valid: callers with a valid key are never limited here.
 */
async function admitKeyless(services: Services, request: IncomingMessage, clientAddress: string): Promise<DomainError | undefined> {
  const limiter = services.keylessRateLimiter
  if (!limiter.enabled) return undefined
  const path = (request.url ?? '/').split('?')[0]!
  const api = path === '/graphql' || ((path === '/v1' || path.startsWith('/v1/')) && path !== '/v1/openapi.json')
  const keyless = path.startsWith('/checkout/') || path.startsWith('/invoices/') || path.startsWith('/webhooks/pix/') || (api && !request.headers.authorization)
  if (keyless) {
    const admission = limiter.admit(clientAddress)
    return admission.allowed ? undefined : keylessRefusal(admission.retryAfterSeconds)
  }
  if (!api || !limiter.isExhausted(clientAddress)) return undefined
  try {
    await authenticateApiKey(services.database.prisma, systemClock, request.headers.authorization, services.apiKeyCache)
    return undefined
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'unauthorized')) throw error
    const admission = limiter.admit(clientAddress)
    return admission.allowed ? undefined : keylessRefusal(admission.retryAfterSeconds)
  }
}

function keylessRefusal(retryAfterSeconds: number): DomainError {
  return new DomainError('rate_limited', 'Too many requests without a valid API key from this address; retry after the time in Retry-After', {
    details: { retryAfterSeconds },
  })
}

async function dispatch(routes: HttpRoutes, request: IncomingMessage, response: ServerResponse, requestId: string, scope: RouteScope): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost')
  const method = request.method ?? 'GET'
  if (url.pathname === '/graphql') {
    scope.route = '/graphql'
    if (method !== 'GET' && method !== 'HEAD') {
      let body: Buffer
      try {
        body = await readBody(request, routes.graphqlMaxBodyBytes)
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'payload_too_large')) throw error
        discardRestOfBody(request)
        return sendResponse(response, errorResponse(error))
      }
      // Read here, within the limit, whatever the framing (Content-Length or chunked); yoga's Node
      // adapter takes an already read body from `request.body` instead of reading the stream again.
      Object.assign(request, { body })
    }
    await routes.yoga.requestListener(request, response)
    return
  }
  if (url.pathname.startsWith('/graphiql/') && method === 'GET') {
    const asset = await readGraphiQLAsset(url.pathname)
    if (asset) {
      scope.route = '/graphiql/{asset}'
      response.writeHead(200, { 'Content-Type': asset.contentType, 'Content-Length': asset.body.length, 'Cache-Control': 'public, max-age=86400' })
      response.end(asset.body)
      return
    }
  }
  if ((url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/')) && method === 'GET') {
    const dashboard = await serveDashboard(url.pathname)
    if (dashboard) {
      // Only the page and its two fixed assets get here, so the path is a bounded label.
      scope.route = url.pathname === '/dashboard/' ? '/dashboard' : url.pathname
      response.writeHead(dashboard.status, { ...dashboard.headers, 'Content-Length': Buffer.byteLength(dashboard.body) })
      response.end(dashboard.body)
      return
    }
  }
  if (url.pathname.startsWith('/checkout/') || url.pathname.startsWith('/invoices/')) {
    const acceptLanguage = request.headers['accept-language']
    const page = await servePaymentPages(routes.services, { method, pathname: url.pathname, acceptLanguage })
    if (page) {
      scope.route = url.pathname.startsWith('/checkout/') ? '/checkout/{page}' : '/invoices/{page}'
      response.writeHead(page.status, { ...page.headers, 'Content-Length': Buffer.byteLength(page.body) })
      response.end(page.body)
      return
    }
  }
  if (url.pathname === '/metrics' && method === 'GET' && routes.metricsToken) {
    scope.route = '/metrics'
    const metrics = await serveMetrics(routes.services, routes.metricsToken, request.headers.authorization)
    response.writeHead(200, { 'Content-Type': metrics.contentType, 'Content-Length': Buffer.byteLength(metrics.body), 'Cache-Control': 'no-store' })
    response.end(metrics.body)
    return
  }
  if (url.pathname === '/healthz' || url.pathname === '/readyz' || url.pathname === '/v1/openapi.json') scope.route = url.pathname
  const pixCallback = /^\/webhooks\/pix\/([A-Za-z0-9_-]{1,200})\/(pix|rec|cobr)$/.exec(url.pathname)
  if (pixCallback && method === 'POST') {
    scope.route = `/webhooks/pix/{token}/${pixCallback[2]}`
    // The PSP's callback: answered 200 once every Pix in it was confirmed with the PSP and recorded;
    // an error answer (e.g. 503 while the PSP's own API is down) makes the PSP retry it.
    const text = await readBody(request, maxBodyBytes).then(
      (bytes) => bytes.toString('utf8'),
      (error: unknown) => {
        discardRestOfBody(request)
        throw error
      },
    )
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new DomainError('invalid_json', 'The body is not valid JSON')
    }
    await receivePixCallback(routes.services.database.prisma, pixCallback[1]!, body, pixCallback[2] as 'pix' | 'rec' | 'cobr')
    return sendResponse(response, { status: 200, headers: {}, body: { received: true } })
  }
  if (url.pathname === '/healthz') return sendResponse(response, { status: 200, headers: {}, body: { status: 'ok' } })
  if (url.pathname === '/readyz') return sendResponse(response, await readiness(routes.services))
  if (url.pathname === '/v1/openapi.json' && method === 'GET') return sendResponse(response, { status: 200, headers: {}, body: routes.openApiDocument })
  if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
    let bodyTooLarge = false
    const restResponse = await routes.rest({
      method,
      url,
      requestId,
      reportRoute: (template) => {
        scope.route = template
      },
      header: (name) => {
        const value = request.headers[name.toLowerCase()]
        return Array.isArray(value) ? value.join(', ') : value
      },
      readBody: async () => {
        try {
          return (await readBody(request, maxBodyBytes)).toString('utf8')
        } catch (error) {
          bodyTooLarge = error instanceof DomainError && error.code === 'payload_too_large'
          throw error
        }
      },
    })
    if (bodyTooLarge) discardRestOfBody(request)
    return sendResponse(response, restResponse)
  }
  sendResponse(response, errorResponse(new DomainError('not_found', `Nothing at ${url.pathname}`)))
}

async function readiness(services: Services): Promise<RestResponse> {
  try {
    await services.database.pool.query('SELECT 1')
    return { status: 200, headers: {}, body: successEnvelope({ database: 'ok' }) }
  } catch {
    return errorResponse(new DomainError('unavailable', 'The database cannot be reached'))
  }
}

const maxDiscardedBytes = 16 * 1024 * 1024

/**
 * The client of an oversized body is still sending it when the 413 goes out; the rest is read and
 * dropped so that it can read the answer (closing at once would reset its connection mid-upload).
 * A client that keeps sending far past the limit is cut off.
 */
function discardRestOfBody(request: IncomingMessage): void {
  let discarded = 0
  request.removeAllListeners('data')
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > maxDiscardedBytes) request.destroy()
  })
  request.resume()
}

/** The whole body, refused as soon as it passes `limit`: by its Content-Length, or while it streams (chunked). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () => new DomainError('payload_too_large', `Bodies are limited to ${limit} bytes`)
  if (Number(request.headers['content-length'] ?? 0) > limit) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        request.removeAllListeners('data')
        request.pause()
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks)))
    request.on('error', reject)
  })
}

/** The envelope (or any JSON body) with its status and headers. */
export function sendResponse(response: ServerResponse, result: RestResponse): void {
  const body = JSON.stringify(result.body)
  response.writeHead(result.status, {
    ...result.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  })
  response.end(body)
}
