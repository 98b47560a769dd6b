import type { Duplex } from 'node:stream'
import { errorEnvelope } from '../../rest/envelope'
import { DomainError } from '../domain/DomainError'
import { logInfo } from '../logging/log'
import { chooseRequestId } from '../logging/requestScope'

/**
 * A request Node's HTTP parser refuses (bad request line, headers too large, broken framing) never
 * reaches the handler; it still gets an answer in the envelope, then the connection closes.
 */
export function answerMalformedRequest(error: Error & { code?: string }, socket: Duplex): void {
  logInfo('malformed request', { code: error.code })
  if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
    socket.destroy()
    return
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const status = tooLarge ? 431 : 400
  const refusal = tooLarge
    ? new DomainError('payload_too_large', 'The request line and headers are too large')
    : new DomainError('validation_error', 'The request is not valid HTTP')
  const body = JSON.stringify(errorEnvelope(refusal))
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${chooseRequestId(undefined)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
