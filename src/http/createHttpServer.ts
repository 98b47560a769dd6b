import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { answerMalformedRequest } from './answerMalformedRequest'
import type { HttpLimits } from './httpLimits'

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void

/** A listening surface whose handler can be set later: the server answers probes before the application exists. */
export interface HttpServer {
  server: Server
  /** From now on, every request goes to `handler`. */
  serve(handler: RequestHandler): void
}

/** Node's HTTP server with the limits of one client connection (README, Configuration). */
export function createHttpServer(limits: HttpLimits, initialHandler: RequestHandler = refuseUntilServing): HttpServer {
  let handler = initialHandler
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // How often the timeouts above are enforced (Node checks every 30 s by default).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
      keepAliveTimeout: 5_000,
    },
    (request, response) => handler(request, response),
  )
  server.maxConnections = limits.maxConnections
  server.on('clientError', answerMalformedRequest)
  return {
    server,
    serve: (next) => {
      handler = next
    },
  }
}

function refuseUntilServing(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(503, { 'Retry-After': '1' })
  response.end()
}
