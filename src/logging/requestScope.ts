import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'

// The request id follows a request through every await, so that a log line written deep inside an
// operation still names the request it belongs to.

// The client's address (see clientAddressOf) follows it the same way, for the keyless rate limit.

const storage = new AsyncLocalStorage<{ requestId: string; clientAddress: string }>()

export function runInRequestScope<T>(requestId: string, work: () => T, clientAddress = 'unknown'): T {
  return storage.run({ requestId, clientAddress }, work)
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId
}

export function currentClientAddress(): string {
  return storage.getStore()?.clientAddress ?? 'unknown'
}

const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/

/** Echoes a client's X-Request-Id when it is a sane token, else makes one. */
export function chooseRequestId(clientValue: string | null | undefined): string {
  return clientValue && saneRequestId.test(clientValue) ? clientValue : `req_${randomUUID().replaceAll('-', '')}`
}
