import type { Services } from '../Services'
import { DomainError } from '../domain/DomainError'
import type { Caller } from './authenticateApiKey'

/** 429 rate_limited when the caller's key is over its per-second limit; `details.retryAfterSeconds` feeds Retry-After. */
export function requireAdmission(services: Services, caller: Caller): void {
  const admission = services.rateLimiter.admit(caller.keyId)
  if (!admission.allowed) {
    throw new DomainError('rate_limited', 'Too many requests for this API key; retry after the time in Retry-After', {
      details: { retryAfterSeconds: admission.retryAfterSeconds },
    })
  }
}
