import { afterAll, beforeAll, expect, test } from 'vitest'
import { createDatabaseClient, type DatabaseConnection } from '../src/database/createDatabaseClient'
import { contextForAccount, inTransaction, isTransaction, runInTransaction, type Transaction } from '../src/domain/DomainContext'
import { recordEvent } from '../src/events/recordEvent'
import { createTestDatabase } from './support/testDatabase'

// Issue 9 §4: work that must run in a transaction takes a `Transaction`, a type only runInTransaction
// hands out; the root client does not fit it (the @ts-expect-error lines fail `tsc` if it ever did).

let database: DatabaseConnection

beforeAll(async () => {
  database = createDatabaseClient(await createTestDatabase(), { maxConnections: 2 })
})

afterAll(async () => {
  await database.close()
})

test('the root client is not a Transaction, to the compiler or at run time', () => {
  // @ts-expect-error the root client cannot be given where a transaction is required
  const refused: Transaction = database.prisma
  expect(isTransaction(refused)).toBe(false)
  const context = contextForAccount(database.prisma, { id: 'acct_none', mode: 'test', clockOffsetMs: 0 })
  // @ts-expect-error an event is recorded in the transaction of its change, never on its own
  void (() => recordEvent(context, 'customer.created', { id: 'cus_none' }))
})

test('runInTransaction opens one transaction, and work inside it joins it instead of opening another', async () => {
  const [outer, inner, backend] = await runInTransaction(database.prisma, async (transaction) => {
    expect(isTransaction(transaction)).toBe(true)
    const joined = await runInTransaction(transaction, async (nested) => nested)
    const context = contextForAccount(transaction, { id: 'acct_none', mode: 'test', clockOffsetMs: 0 })
    const fromContext = await inTransaction(context, async (nested) => nested.db)
    expect(fromContext).toBe(transaction)
    const [{ pid }] = await transaction.$queryRaw<[{ pid: number }]>`SELECT pg_backend_pid() AS pid`
    const [{ pid: joinedPid }] = await joined.$queryRaw<[{ pid: number }]>`SELECT pg_backend_pid() AS pid`
    return [transaction, joined, pid === joinedPid] as const
  })
  expect(inner).toBe(outer)
  expect(backend).toBe(true)
})

test('a failure inside rolls the whole transaction back, nested work included', async () => {
  await expect(
    runInTransaction(database.prisma, async (transaction) => {
      await runInTransaction(transaction, (nested) => nested.$executeRaw`CREATE TABLE rolled_back_probe (id int)`)
      throw new Error('roll back')
    }),
  ).rejects.toThrow('roll back')
  const [{ exists }] = await database.prisma.$queryRaw<[{ exists: boolean }]>`SELECT to_regclass('rolled_back_probe') IS NOT NULL AS exists`
  expect(exists).toBe(false)
})
