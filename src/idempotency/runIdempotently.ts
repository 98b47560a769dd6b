import { randomUUID } from 'node:crypto'
import type { DatabaseClient } from '../database/createDatabaseClient'
import { runInTransaction, type Clock, type Database, type Transaction } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { createId } from '../domain/createId'
import { Prisma } from '../generated/prisma/client'

// CONTRACT §3 for the Idempotency-Key header. The rules that must hold:
// - A key is claimed (in_flight, with a lease) in its own short transaction before the endpoint runs,
//   so that concurrent requests with the same key see it and get 409 instead of running twice.
// - The endpoint's writes and the stored response commit in ONE transaction, guarded by the lease
//   token: a stored response exists exactly when its writes were committed, and a request whose lease
//   was taken over (it ran past the lease) rolls back instead of committing a second time.
// - Failed requests leave no writes: an error response rolls the endpoint's transaction back. Responses
//   the contract says are not stored (5xx, validation errors) release the key for a fresh try.

export interface StoredResponse {
  status: number
  body: unknown
  /** False for responses a retry must not be answered with (validation errors, 5xx). */
  storable: boolean
}

export interface IdempotentRequest {
  accountId: string
  key: string
  fingerprint: string
}

export interface IdempotentOutcome {
  response: StoredResponse
  replayed: boolean
}

// Short: correctness never depends on it (the lease token does), it only bounds how long a retry waits
// after the process that claimed the key died.
const leaseMilliseconds = 10_000

class RollbackWithResponse extends Error {
  constructor(readonly response: StoredResponse) {
    super('rolled back: the endpoint answered with an error')
  }
}

export async function runIdempotently(
  prisma: DatabaseClient,
  clock: Clock,
  request: IdempotentRequest,
  execute: (transaction: Transaction) => Promise<StoredResponse>,
): Promise<IdempotentOutcome> {
  const claim = await claimKey(prisma, clock, request)
  if ('replay' in claim) return { response: claim.replay, replayed: true }
  const { recordId, leaseToken } = claim
  const lease = { id: recordId, leaseToken, state: 'in_flight' as const }
  try {
    const response = await runInTransaction(prisma, async (transaction) => {
      const response = await execute(transaction)
      if (response.status >= 400) throw new RollbackWithResponse(response)
      await completeRecord(transaction, lease, response)
      return response
    })
    return { response, replayed: false }
  } catch (error) {
    if (!(error instanceof RollbackWithResponse)) {
      await releaseRecord(prisma, lease)
      throw error
    }
    if (error.response.storable && error.response.status < 500) {
      await completeRecord(prisma, lease, error.response)
    } else {
      await releaseRecord(prisma, lease)
    }
    return { response: error.response, replayed: false }
  }
}

type Claim = { recordId: string; leaseToken: string } | { replay: StoredResponse }

async function claimKey(prisma: DatabaseClient, clock: Clock, request: IdempotentRequest): Promise<Claim> {
  const leaseToken = randomUUID()
  const now = clock.now()
  const recordId = createId('IdempotencyRecord')
  const inserted = await prisma.idempotencyRecord.createMany({
    data: {
      id: recordId,
      accountId: request.accountId,
      key: request.key,
      fingerprint: request.fingerprint,
      state: 'in_flight',
      leaseToken,
      leaseExpiresAt: new Date(now.getTime() + leaseMilliseconds),
      createdAt: now,
    },
    skipDuplicates: true,
  })
  if (inserted.count === 1) return { recordId, leaseToken }

  const existing = await prisma.idempotencyRecord.findUnique({
    where: { accountId_key: { accountId: request.accountId, key: request.key } },
  })
  if (!existing) {
    // Released between our insert and our read: the key is free again, but only one retry is owed.
    throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is being processed; retry shortly')
  }
  if (existing.fingerprint !== request.fingerprint) {
    throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used for a different request (method, path or body)')
  }
  if (existing.state === 'completed') {
    return { replay: { status: existing.responseStatus ?? 200, body: existing.responseBody, storable: true } }
  }
  if (existing.leaseExpiresAt > now) {
    throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is being processed; retry shortly')
  }
  // The first request's process died or stalled past its lease: its transaction cannot commit any
  // more (the token check), so taking the key over cannot double its effect.
  const takenOver = await prisma.idempotencyRecord.updateMany({
    where: { id: existing.id, leaseToken: existing.leaseToken, state: 'in_flight' },
    data: { leaseToken, leaseExpiresAt: new Date(now.getTime() + leaseMilliseconds) },
  })
  if (takenOver.count !== 1) {
    throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is being processed; retry shortly')
  }
  return { recordId: existing.id, leaseToken }
}

async function completeRecord(
  db: Database,
  lease: { id: string; leaseToken: string; state: 'in_flight' },
  response: StoredResponse,
): Promise<void> {
  const completed = await db.idempotencyRecord.updateMany({
    where: lease,
    data: { state: 'completed', responseStatus: response.status, responseBody: (response.body ?? Prisma.JsonNull) as Prisma.InputJsonValue },
  })
  if (completed.count !== 1) {
    throw new DomainError('idempotency_key_in_use', 'This request ran past its idempotency lease and was taken over; retry to see its outcome')
  }
}

async function releaseRecord(prisma: DatabaseClient, lease: { id: string; leaseToken: string }): Promise<void> {
  await prisma.idempotencyRecord.deleteMany({ where: { id: lease.id, leaseToken: lease.leaseToken } }).catch(() => undefined)
}
