import type { Services } from '../Services'
import { systemClock } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { currentClientAddress } from '../logging/requestScope'
import { authenticateApiKey, type Caller } from './authenticateApiKey'
import { requireAdmission } from './requireAdmission'

/**
 * The caller named by a request's Authorization header, admitted by its key's rate limit (REST and
 * GraphQL both come through here). A key that was sent and refused counts against the client
 * address's keyless limit; a request with no header at all was counted at the door (createHttpHandler).
 */
export async function authenticateCaller(services: Services, authorization: string | null | undefined): Promise<Caller> {
  let caller: Caller
  try {
    caller = await authenticateApiKey(services.database.prisma, systemClock, authorization, services.apiKeyCache)
  } catch (error) {
    if (authorization && error instanceof DomainError && error.code === 'unauthorized') services.keylessRateLimiter.admit(currentClientAddress())
    throw error
  }
  requireAdmission(services, caller)
  return caller
}
