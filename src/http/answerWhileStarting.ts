import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorResponse } from '../../rest/handleRestRequest'
import { DomainError } from '../domain/DomainError'
import { sendResponse } from './createHttpHandler'
import { chooseRequestId } from '../logging/requestScope'

/**
 * What the process answers while it waits for its database (src/server.ts): it is alive (`/healthz`
 * 200) but not ready (`/readyz` 503), and every other request is 503 `unavailable` with Retry-After,
 * so that load balancers and clients hold off until the database is reachable and migrated.
 */
export function answerWhileStarting(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('X-Request-Id', chooseRequestId(request.headers['x-request-id'] as string | undefined))
  // The body is not read: the connection closes after the answer rather than carry it over.
  if (request.method !== 'GET' && request.method !== 'HEAD') response.shouldKeepAlive = false
  const path = new URL(request.url ?? '/', 'http://localhost').pathname
  if (path === '/healthz') return sendResponse(response, { status: 200, headers: {}, body: { status: 'ok' } })
  sendResponse(response, errorResponse(new DomainError('unavailable', 'The service is starting: its database cannot be reached yet')))
}
