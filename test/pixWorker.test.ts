import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pixTxid } from '../src/payments/pix/pixTxid'
import { removeStalePixWorkAttempts } from '../src/payments/pix/removeStalePixWorkAttempts'
import { runPixWork } from '../src/payments/pix/runPixWork'
import { setUpPixMerchant, type PixMerchant } from './support/pixMerchant'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 10's audit of the PIX worker, with the simulator as a separate process: batches filtered in
// SQL and ordered by last attempt, so neither charged invoices nor items the PSP keeps refusing hold
// back the others; reconciliation confirming each charge alone and never moving its window past a
// Pix it could not confirm; every page of `GET /pix` read; overlapping windows; an overdue invoice's
// cob renewed before it expires.

let app: TestApplication
let psp: PixSimulatorProcess
let pool: pg.Pool

beforeAll(async () => {
  ;[app, psp] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator()])
  pool = new pg.Pool({ connectionString: app.databaseUrl, max: 2 })
})
afterAll(async () => {
  await pool.end()
  await app.close()
  await psp.stop()
})

const prisma = () => app.application.services.database.prisma
const day = 86_400_000

const merchant = (mode: 'live' | 'test', provider: PixSimulatorProcess = psp) => setUpPixMerchant(app, provider, mode)

async function count(sql: string, parameters: unknown[] = []): Promise<number> {
  return Number((await pool.query(sql, parameters)).rows[0].count)
}

/** `how many` pix_manual subscriptions of one customer, oldest first; each issues its first invoice at once. */
async function manualInvoices(shop: PixMerchant, howMany: number, amount = '19.90'): Promise<{ id: string; subscriptionId: string }[]> {
  const customer = await shop.ok('POST', '/v1/customers', { name: 'Assinante' })
  const plan = await shop.ok('POST', '/v1/products', { name: `Plano ${amount}`, type: 'subscription', defaultPrice: { amount, currency: 'BRL', model: 'subscription', interval: 'month' } })
  const subscriptions: string[] = []
  for (let index = 0; index < howMany; index += 1) subscriptions.push((await shop.ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' })).id)
  const invoices = await pool.query('SELECT id, "subscriptionId" FROM "Invoice" WHERE "subscriptionId" = ANY($1) ORDER BY "createdAt", id', [subscriptions])
  return invoices.rows
}

const chargedInvoices = (invoiceIds: string[]) => count('SELECT count(*) FROM "PixCharge" WHERE "invoiceId" = ANY($1)', [invoiceIds])
const refuse = (txid: string, refused = true) => psp.control('POST', `/cob/${txid}/refuse`, { refuse: refused })

describe('worker batches', () => {
  test('an invoice issued after 50 that already have their cob gets one too (the batch leaves charged invoices out in SQL)', async () => {
    const shop = await merchant('live')
    const older = await manualInvoices(shop, 50)
    await runPixWork(prisma())
    expect(await chargedInvoices(older.map((invoice) => invoice.id))).toBe(50)
    const [newer] = await manualInvoices(shop, 1)
    await runPixWork(prisma())
    expect((await shop.ok('GET', `/v1/invoices/${newer!.id}`)).payment).toMatchObject({ rail: 'pix', txid: pixTxid(newer!.id) })
  }, 180_000)

  test('50 invoices whose cob the PSP keeps refusing do not starve a newer one: the least recently tried go first', async () => {
    const shop = await merchant('live')
    const refused = await manualInvoices(shop, 50, '21.00')
    for (const invoice of refused) await refuse(pixTxid(invoice.id))
    const [newer] = await manualInvoices(shop, 1, '21.00')
    try {
      await runPixWork(prisma())
      await runPixWork(prisma())
      expect(await chargedInvoices([newer!.id])).toBe(1)
      expect(await chargedInvoices(refused.map((invoice) => invoice.id))).toBe(0)
      expect(await count('SELECT count(*) FROM "PixWorkAttempt" WHERE job = $1 AND subject = ANY($2)', ['charge_invoice', refused.map((invoice) => invoice.id)])).toBe(50)
    } finally {
      for (const invoice of refused) await refuse(pixTxid(invoice.id), false)
    }
    await runPixWork(prisma())
    expect(await chargedInvoices(refused.map((invoice) => invoice.id))).toBe(50)
    // Done items leave no record behind.
    expect(await count('SELECT count(*) FROM "PixWorkAttempt" WHERE "accountId" = $1', [shop.accountId])).toBe(0)
  }, 180_000)

  test('50 expired sessions whose charge the PSP refuses to remove do not keep another one\'s charge alive', async () => {
    const shop = await merchant('test')
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Sessões' })
    const sessions = []
    for (let index = 0; index < 51; index += 1) sessions.push(await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '3.00', currency: 'BRL' }))
    // The one left to remove has the greatest txid, so neither creation nor key order puts it in the first batch.
    sessions.sort((left, right) => (left.payment.txid < right.payment.txid ? -1 : 1))
    const stuck = sessions.slice(0, 50)
    const removable = sessions[50]
    for (const session of stuck) await refuse(session.payment.txid)
    try {
      await shop.ok('POST', '/v1/test_helpers/clock/advance', { seconds: 25 * 3600 })
      await runPixWork(prisma())
      await runPixWork(prisma())
      const cob = (await psp.control('GET', '/state')).cobs.find((candidate: { txid: string }) => candidate.txid === removable.payment.txid)
      expect(cob.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR')
      expect(await count(`SELECT count(*) FROM "PixCharge" WHERE txid = $1 AND status = 'removed'`, [removable.payment.txid])).toBe(1)
      expect(await count(`SELECT count(*) FROM "PixCharge" WHERE txid = ANY($1) AND status = 'active'`, [stuck.map((session) => session.payment.txid)])).toBe(50)
    } finally {
      for (const session of stuck) await refuse(session.payment.txid, false)
    }
    await runPixWork(prisma())
    expect(await count(`SELECT count(*) FROM "PixCharge" WHERE txid = ANY($1) AND status = 'removed'`, [stuck.map((session) => session.payment.txid)])).toBe(50)
  }, 180_000)
})

describe('a PSP that hangs', () => {
  test("ends its own account's pass at its first call (one timeout, not one per item); another account is charged in the same pass", async () => {
    const hanging = await startPixSimulator()
    try {
      const stalled = await merchant('live', hanging)
      const stalledInvoices = await manualInvoices(stalled, 3, '23.00')
      const healthy = await merchant('live')
      const [waiting] = await manualInvoices(healthy, 1, '23.00')
      await hanging.control('POST', '/outage', { mode: 'hang' })
      await runPixWork(prisma(), { force: true })
      expect(await chargedInvoices([waiting!.id])).toBe(1)
      // The pass of the hanging PSP's account ended with reconciliation: none of its invoices was tried.
      expect(await chargedInvoices(stalledInvoices.map((invoice) => invoice.id))).toBe(0)
      expect(await count('SELECT count(*) FROM "PixWorkAttempt" WHERE "accountId" = $1', [stalled.accountId])).toBe(0)
      // Back up: the next pass does the work.
      await hanging.control('POST', '/outage', { mode: 'none' })
      await runPixWork(prisma(), { force: true })
      expect(await chargedInvoices(stalledInvoices.map((invoice) => invoice.id))).toBe(3)
    } finally {
      await hanging.stop()
    }
  }, 120_000)
})

describe('attempt records', () => {
  test('a record untouched for a week (its item finished elsewhere) is removed; a recent one stays', async () => {
    const shop = await merchant('test')
    const insert = (subject: string, daysAgo: number) =>
      pool.query(`INSERT INTO "PixWorkAttempt" (job, subject, "accountId", "attemptedAt") VALUES ('confirm_recurrence', $1, $2, now() - $3 * interval '1 day')`, [subject, shop.accountId, daysAgo])
    await insert(`stale-${randomUUID()}`, 8)
    await insert(`recent-${randomUUID()}`, 6)
    expect(await removeStalePixWorkAttempts(prisma(), { now: () => new Date() })).toBe(1)
    const left = await pool.query<{ subject: string }>('SELECT subject FROM "PixWorkAttempt" WHERE "accountId" = $1', [shop.accountId])
    expect(left.rows.map((row) => row.subject.split('-')[0])).toEqual(['recent'])
  })
})

describe('reconciliation', () => {
  async function paidSessions(shop: PixMerchant, amounts: string[]) {
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Pagador' })
    const sessions = []
    for (const amount of amounts) sessions.push(await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount, currency: 'BRL' }))
    return sessions
  }
  const sessionStatus = async (shop: PixMerchant, id: string) => (await shop.ok('GET', `/v1/checkout/sessions/${id}`)).status
  const transactionsOf = (sessionId: string) => count('SELECT count(*) FROM "Transaction" WHERE "checkoutId" = $1', [sessionId])
  const reconciledThrough = async (accountId: string) => (await pool.query('SELECT "reconciledThrough" FROM "PixProvider" WHERE "accountId" = $1', [accountId])).rows[0].reconciledThrough as Date

  test('a charge the PSP answers with an error blocks no other, and the window never moves past its Pix: a later pass settles it once', async () => {
    const shop = await merchant('live')
    await runPixWork(prisma(), { force: true })
    const [failing, healthy] = await paidSessions(shop, ['11.00', '12.00'])
    const failingPix = await psp.control('POST', `/cob/${failing.payment.txid}/pay`, { callback: false })
    await psp.control('POST', `/cob/${healthy.payment.txid}/pay`, { callback: false })
    await refuse(failing.payment.txid)
    try {
      await runPixWork(prisma(), { force: true })
      expect(await sessionStatus(shop, healthy.id)).toBe('paid')
      expect(await sessionStatus(shop, failing.id)).toBe('open')
      expect((await reconciledThrough(shop.accountId)).getTime()).toBeLessThanOrEqual(Date.parse(failingPix.horario))
      await runPixWork(prisma(), { force: true })
      expect((await reconciledThrough(shop.accountId)).getTime()).toBeLessThanOrEqual(Date.parse(failingPix.horario))
    } finally {
      await refuse(failing.payment.txid, false)
    }
    await runPixWork(prisma(), { force: true })
    expect(await sessionStatus(shop, failing.id)).toBe('paid')
    expect((await reconciledThrough(shop.accountId)).getTime()).toBeGreaterThan(Date.parse(failingPix.horario))
    await runPixWork(prisma(), { force: true })
    expect([await transactionsOf(failing.id), await transactionsOf(healthy.id)]).toEqual([1, 1])
  })

  test('every page of GET /pix is read: five payments whose callbacks never came, two per page, all settled once', async () => {
    const shop = await merchant('live')
    const sessions = await paidSessions(shop, ['1.01', '1.02', '1.03', '1.04', '1.05'])
    for (const session of sessions) await psp.control('POST', `/cob/${session.payment.txid}/pay`, { callback: false })
    const listed = await fetch(`${psp.apiUrl}/__control/state`).then((response) => response.json() as Promise<{ pix: unknown[] }>)
    expect(listed.pix.length).toBeGreaterThanOrEqual(5)
    await runPixWork(prisma(), { force: true, pageSize: 2 })
    for (const session of sessions) expect(await sessionStatus(shop, session.id)).toBe('paid')
    await runPixWork(prisma(), { force: true, pageSize: 2 })
    for (const session of sessions) expect(await transactionsOf(session.id)).toBe(1)
  })

  test('overlapping windows: a Pix the PSP lists with a time before the last reconciled instant is still settled, once', async () => {
    const shop = await merchant('live')
    const [session] = await paidSessions(shop, ['13.37'])
    await runPixWork(prisma(), { force: true })
    const through = await reconciledThrough(shop.accountId)
    const late = await psp.control('POST', `/cob/${session.payment.txid}/pay`, { callback: false, horario: new Date(through.getTime() - 5 * 60_000).toISOString() })
    expect(Date.parse(late.horario)).toBeLessThan(through.getTime())
    await runPixWork(prisma(), { force: true })
    expect(await sessionStatus(shop, session.id)).toBe('paid')
    await runPixWork(prisma(), { force: true })
    await psp.control('POST', `/pix/${late.endToEndId}/callback`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await transactionsOf(session.id)).toBe(1)
    expect(await count('SELECT count(*) FROM "PixPayment" WHERE "endToEndId" = $1', [late.endToEndId])).toBe(1)
  })
})

describe('an overdue invoice', () => {
  test('keeps a live cob: renewed (same txid, expiry moved) before it expires at the PSP, then paid and settled once', async () => {
    const shop = await merchant('test')
    const [invoice] = await manualInvoices(shop, 1, '33.00')
    await runPixWork(prisma())
    const first = (await shop.ok('GET', `/v1/invoices/${invoice!.id}`)).payment
    expect(first).toMatchObject({ rail: 'pix', txid: pixTxid(invoice!.id) })

    // 40 days on: the invoice is overdue and still open; at the PSP its cob has run out.
    await shop.ok('POST', '/v1/test_helpers/clock/advance', { seconds: 40 * 86_400 })
    await psp.control('POST', `/cob/${first.txid}/expire`)
    await expect(psp.control('POST', `/cob/${first.txid}/pay`)).rejects.toThrow(/expirou/)
    await runPixWork(prisma())

    const renewed = await shop.ok('GET', `/v1/invoices/${invoice!.id}`)
    expect(renewed).toMatchObject({ status: 'open', payment: { txid: first.txid, pixCopiaECola: first.pixCopiaECola } })
    expect(Date.parse(renewed.payment.expiresAt) - Date.parse(first.expiresAt)).toBeGreaterThan(30 * day)
    const page = await fetch(`${app.baseUrl}/invoices/${invoice!.id}`).then((response) => response.text())
    expect(page).toContain(first.pixCopiaECola)

    await psp.control('POST', `/cob/${first.txid}/pay`)
    for (let attempt = 0; attempt < 200 && (await shop.ok('GET', `/v1/invoices/${invoice!.id}`)).status !== 'paid'; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await shop.ok('GET', `/v1/invoices/${invoice!.id}`)).status).toBe('paid')
    await runPixWork(prisma(), { force: true })
    expect(await count(`SELECT count(*) FROM "Transaction" WHERE "invoiceId" = $1 AND status = 'succeeded'`, [invoice!.id])).toBe(1)
  })
})
