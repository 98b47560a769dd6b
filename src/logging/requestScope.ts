import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'

// The request id follows a request through every await, so that a log line written deep inside an
// operation still names the request it belongs to.

// The client's address (see clientAddressOf) follows it the same way, for the keyless rate limit.

// And what a request holds until its response is finished (response bytes in flight) is given back then.

interface RequestScope {
  requestId: string
  clientAddress: string
  finished: boolean
  whenFinished: (() => void)[]
}

const storage = new AsyncLocalStorage<RequestScope>()

export function runInRequestScope<T>(requestId: string, work: () => T, clientAddress = 'unknown'): T {
  return storage.run({ requestId, clientAddress, finished: false, whenFinished: [] }, work)
}

/**
 * Runs `task` once the current request's response is finished (sent, or its connection gone). False,
 * with nothing registered, outside a request or once it has finished: the caller gives back at once.
 */
export function whenRequestFinishes(task: () => void): boolean {
  const scope = storage.getStore()
  if (!scope || scope.finished) return false
  scope.whenFinished.push(task)
  return true
}

/** What the HTTP layer calls when the current request's response closes: runs what whenRequestFinishes registered. */
export function currentRequestFinish(): () => void {
  const scope = storage.getStore()
  return () => {
    if (!scope) return
    scope.finished = true
    for (const task of scope.whenFinished.splice(0)) task()
  }
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
