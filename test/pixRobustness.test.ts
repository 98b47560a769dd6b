import { randomUUID } from 'node:crypto'
import { request as httpsRequest } from 'node:https'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pixTxid } from '../src/payments/pix/pixTxid'
import { runPixWork } from '../src/payments/pix/runPixWork'
import { createTestCertificates, type TestCertificates } from './support/createTestCertificates'
import { spawnServer } from './support/spawnServer'
import { configurePixProvider, setUpPixMerchant, type PixMerchant } from './support/pixMerchant'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 10 "Tests", beyond test/pixPayments.test.ts, with the simulator as a separate process: a cob
// for every open pix_manual invoice (derived txid, reused by retries) and its settlement; expired
// sessions lose their charge; the PSP down or hanging while a charge is made; tokens lapsing in the
// middle of a run; two server processes receiving the same callback at once; mutual TLS with a CA
// made by the test.

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

const merchant = (mode: 'live' | 'test', simulator = psp, tls?: Record<string, string>) => setUpPixMerchant(app, simulator, mode, tls)

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition never held')
}

async function count(sql: string, parameters: unknown[] = []): Promise<number> {
  return Number((await pool.query(sql, parameters)).rows[0].count)
}

const cobOf = async (simulator: PixSimulatorProcess, txid: string) => (await simulator.control('GET', '/state')).cobs.filter((cob: { txid: string }) => cob.txid === txid)
const prisma = () => app.application.services.database.prisma

async function manualInvoice(shop: PixMerchant, amount = '19.90') {
  const customer = await shop.ok('POST', '/v1/customers', { name: 'Assinante' })
  const plan = await shop.ok('POST', '/v1/products', { name: `Plano ${amount}`, type: 'subscription', defaultPrice: { amount, currency: 'BRL', model: 'subscription', interval: 'month' } })
  const subscription = await shop.ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' })
  const invoice = (await shop.ok('GET', '/v1/invoices?limit=100')).items.find((candidate: { subscriptionId: string }) => candidate.subscriptionId === subscription.id)
  return { customer, subscription, invoice }
}

describe('a cob for every open pix_manual invoice', () => {
  test('made by the worker under a txid derived from the invoice, reused by retries; shown as payment; settled by the PSP into a paid invoice', async () => {
    const shop = await merchant('live')
    const { subscription, invoice } = await manualInvoice(shop)
    expect(await shop.ok('GET', `/v1/invoices/${invoice.id}`)).toMatchObject({ status: 'open', payment: null })

    // The PSP down: no charge, nothing recorded; the next pass makes it.
    await psp.control('POST', '/outage', { mode: 'down' })
    try {
      await runPixWork(prisma())
    } finally {
      await psp.control('POST', '/outage', { mode: 'none' })
    }
    expect(await count('SELECT count(*) FROM "PixCharge" WHERE "invoiceId" = $1', [invoice.id])).toBe(0)
    expect(await cobOf(psp, pixTxid(invoice.id))).toEqual([])
    // Passes that overlap, as in two processes: one charge.
    await Promise.all([runPixWork(prisma()), runPixWork(prisma()), runPixWork(prisma())])
    const charged = await shop.ok('GET', `/v1/invoices/${invoice.id}`)
    expect(charged.payment).toMatchObject({ rail: 'pix', txid: pixTxid(invoice.id), amountReceived: '0.00' })
    const [cob] = await cobOf(psp, charged.payment.txid)
    expect(cob).toMatchObject({ status: 'ATIVA', valor: { original: '19.90' }, chave: shop.pixKey, pixCopiaECola: charged.payment.pixCopiaECola })

    // A commit lost after the PSP accepted the PUT (the row is gone, the cob is not): the retry asks
    // for the same txid, the PSP revises that cob, and there is still one charge to pay.
    await pool.query('DELETE FROM "PixCharge" WHERE "invoiceId" = $1', [invoice.id])
    await runPixWork(prisma())
    const again = await cobOf(psp, charged.payment.txid)
    expect(again).toHaveLength(1)
    expect(again[0].revisao).toBe(cob.revisao + 1)
    expect((await shop.ok('GET', `/v1/invoices/${invoice.id}`)).payment.txid).toBe(charged.payment.txid)
    expect((await psp.control('GET', '/state')).cobs.filter((candidate: { solicitacaoPagador?: string }) => candidate.solicitacaoPagador === `Fatura ${invoice.id}`)).toHaveLength(1)

    const graph = await app.graphql(`query($id: ID!) { invoice(id: $id) { payment { __typename ... on PixPaymentInstructions { txid pixCopiaECola } } } }`, { id: invoice.id }, shop.key)
    expect(graph.body.data.invoice.payment).toEqual({ __typename: 'PixPaymentInstructions', txid: charged.payment.txid, pixCopiaECola: charged.payment.pixCopiaECola })

    await psp.control('POST', `/cob/${charged.payment.txid}/pay`)
    const paid = await waitFor(() => shop.ok('GET', `/v1/invoices/${invoice.id}`), (value) => value.status === 'paid')
    expect(paid).toMatchObject({ amountPaid: '19.90', payment: { amountReceived: '19.90' } })
    const transactions = await pool.query('SELECT status, amount::text, "invoiceId" FROM "Transaction" WHERE "invoiceId" = $1', [invoice.id])
    expect(transactions.rows).toEqual([{ status: 'succeeded', amount: '19.900000', invoiceId: invoice.id }])
    expect((await shop.ok('GET', `/v1/subscriptions/${subscription.id}`)).status).toBe('active')
    const listed = await shop.ok('GET', '/v1/transactions?limit=100')
    expect(listed.items.find((item: { invoiceId: string | null }) => item.invoiceId === invoice.id)).toMatchObject({ status: 'succeeded', amount: '19.90' })
  })

  test('a session expired by the billing clock loses its charge at the PSP, and nobody can pay it any more', async () => {
    const shop = await merchant('test')
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Atrasada' })
    const session = await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '15.00', currency: 'BRL' })
    expect((await cobOf(psp, session.payment.txid))[0].status).toBe('ATIVA')
    await shop.ok('POST', '/v1/test_helpers/clock/advance', { seconds: 25 * 3600 })
    expect((await shop.ok('GET', `/v1/checkout/sessions/${session.id}`)).status).toBe('expired')
    expect(await count(`SELECT count(*) FROM "CheckoutSession" WHERE id = $1 AND status = 'expired'`, [session.id])).toBe(1)
    await runPixWork(prisma())
    expect((await cobOf(psp, session.payment.txid))[0].status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR')
    expect(await count(`SELECT count(*) FROM "PixCharge" WHERE txid = $1 AND status = 'removed'`, [session.payment.txid])).toBe(1)
    await expect(psp.control('POST', `/cob/${session.payment.txid}/pay`)).rejects.toThrow(/REMOVIDA_PELO_USUARIO_RECEBEDOR/)
    expect(await count('SELECT count(*) FROM "Transaction" WHERE "checkoutId" = $1', [session.id])).toBe(0)
  })
})

describe('the PSP failing while charges are made', () => {
  test('a PSP that hangs during checkout creation: 503 after the client\'s timeout, nothing created; the next try works', async () => {
    const shop = await merchant('live')
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Paciente' })
    const sessionsBefore = await count('SELECT count(*) FROM "CheckoutSession" WHERE "customerId" = $1', [customer.id])
    await psp.control('POST', '/outage', { mode: 'hang' })
    let refused
    try {
      refused = await shop.call('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '20.00', currency: 'BRL' })
    } finally {
      await psp.control('POST', '/outage', { mode: 'none' })
    }
    expect(refused.status).toBe(503)
    expect(refused.body.error.code).toBe('unavailable')
    expect(await count('SELECT count(*) FROM "CheckoutSession" WHERE "customerId" = $1', [customer.id])).toBe(sessionsBefore)
    const session = await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '20.00', currency: 'BRL' })
    expect(session.payment.txid).toBe(pixTxid(session.id))
  }, 60_000)

  test('a PSP that hangs holds a bounded number of connections: another account is served while its checkouts wait', async () => {
    const shop = await merchant('live')
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Fila' })
    await psp.control('POST', '/outage', { mode: 'hang' })
    let hungAnswered = 0
    let hung: Promise<number>[]
    let other
    try {
      // More BRL checkouts at once than the test server has database connections (10), each of which
      // would hold its transaction open for as long as the PSP takes.
      hung = Array.from({ length: 14 }, () =>
        shop.call('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '2.00', currency: 'BRL' }).then((response) => {
          if (response.body.error?.message?.includes('cannot be reached')) hungAnswered += 1
          return response.status
        }),
      )
      await waitFor(async () => (await psp.control('GET', '/state')).hangingRequests as number, (value) => value >= 4)
      other = await app.request('GET', '/v1/customers?limit=1')
      // Answered while the calls the PSP holds are still waiting for their timeout.
      expect(hungAnswered).toBe(0)
    } finally {
      await psp.control('POST', '/outage', { mode: 'none' })
    }
    expect(other.status).toBe(200)
    const statuses = await Promise.all(hung)
    expect(statuses).toEqual(statuses.map(() => 503))
    expect(hungAnswered).toBe(4)
    expect(await count('SELECT count(*) FROM "CheckoutSession" WHERE "customerId" = $1', [customer.id])).toBe(0)
    expect((await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '2.00', currency: 'BRL' })).payment.txid).toMatch(/^bk/)
  }, 60_000)

  test('tokens that lapse in the middle of a run are renewed and the run finishes: charges made, payments settled', async () => {
    const shop = await merchant('live')
    const first = await manualInvoice(shop, '11.00')
    const second = await manualInvoice(shop, '12.00')
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Sem callback' })
    const session = await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '13.00', currency: 'BRL' })
    await psp.control('POST', `/cob/${session.payment.txid}/pay`, { callback: false })
    const issuedBefore = (await psp.control('GET', '/state')).tokensIssued
    // The token dies after the first call of the pass (the reconciliation's GET /pix): the GET /cob that
    // confirms the payment, and the PUT /cob of each invoice, meet 401 and renew it.
    await psp.control('POST', '/tokens/expire', { afterCalls: 1 })
    await runPixWork(prisma(), { force: true })
    expect((await psp.control('GET', '/state')).tokensIssued).toBeGreaterThan(issuedBefore)
    expect((await shop.ok('GET', `/v1/checkout/sessions/${session.id}`)).status).toBe('paid')
    for (const { invoice } of [first, second]) expect((await shop.ok('GET', `/v1/invoices/${invoice.id}`)).payment?.txid).toBe(pixTxid(invoice.id))
    // Again, mid-way through the charges this time.
    const third = await manualInvoice(shop, '14.00')
    const fourth = await manualInvoice(shop, '15.00')
    await psp.control('POST', '/tokens/expire', { afterCalls: 2 })
    await runPixWork(prisma(), { force: true })
    for (const { invoice } of [third, fourth]) expect((await shop.ok('GET', `/v1/invoices/${invoice.id}`)).payment?.txid).toBe(pixTxid(invoice.id))
  })
})

describe('two server processes', () => {
  test('receiving the same callback at once, many times, settle the payment once', async () => {
    const shop = await merchant('live')
    const server = await spawnServer({ DATABASE_URL: app.databaseUrl, PIX_INTERVAL_SECONDS: '0', BILLING_INTERVAL_SECONDS: '0', RATE_LIMIT_PER_SECOND: '0' })
    try {
      const customer = await shop.ok('POST', '/v1/customers', { name: 'Dupla' })
      const session = await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '33.30', currency: 'BRL' })
      const [pix] = [await psp.control('POST', `/cob/${session.payment.txid}/pay`, { callback: false })]
      const webhookUrl = (await psp.control('GET', '/state')).webhooks[shop.pixKey] as string
      const path = `${new URL(webhookUrl).pathname}/pix`
      const body = JSON.stringify({ pix: [pix] })
      const deliveries = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          fetch(`${index % 2 === 0 ? app.baseUrl : server.baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
        ),
      )
      expect(deliveries.map((response) => response.status)).toEqual(deliveries.map(() => 200))
      expect((await shop.ok('GET', `/v1/checkout/sessions/${session.id}`)).status).toBe('paid')
      expect(await count('SELECT count(*) FROM "Transaction" WHERE "checkoutId" = $1', [session.id])).toBe(1)
      expect(await count('SELECT count(*) FROM "CreditLedgerEntry" WHERE "checkoutSessionId" = $1', [session.id])).toBe(1)
      expect(await count('SELECT count(*) FROM "PixPayment" WHERE txid = $1', [session.payment.txid])).toBe(1)
      expect((await shop.ok('GET', `/v1/customers/${customer.id}/credits?currency=BRL`)).balance).toBe('33.30')
    } finally {
      await server.stop('SIGTERM')
    }
  }, 90_000)
})

describe('mutual TLS with a CA the test makes', () => {
  let certificates: TestCertificates
  let secure: PixSimulatorProcess
  beforeAll(async () => {
    certificates = await createTestCertificates()
    secure = await startPixSimulator(
      { PIX_SIMULATOR_TLS_CERT: certificates.files.serverCertificate, PIX_SIMULATOR_TLS_KEY: certificates.files.serverKey, PIX_SIMULATOR_TLS_CA: certificates.files.ca },
      (url, init) => mutualTlsFetch(String(url), init ?? {}, { ca: certificates.ca, cert: certificates.clientCertificate, key: certificates.clientKey }),
    )
  }, 60_000)
  afterAll(async () => {
    await secure?.stop()
    await certificates?.remove()
  })

  const tls = () => ({ tlsCertificate: certificates.clientCertificate, tlsKey: certificates.clientKey, tlsCa: certificates.ca })

  test('with the client certificate the CA signed, the whole flow works: configure, charge, callback, settle', async () => {
    expect(secure.apiUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const shop = await merchant('live', secure, tls())
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Segura' })
    const session = await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '21.00', currency: 'BRL' })
    expect((await cobOf(secure, session.payment.txid))[0]).toMatchObject({ status: 'ATIVA', pixCopiaECola: session.payment.pixCopiaECola })
    await secure.control('POST', `/cob/${session.payment.txid}/pay`)
    await waitFor(() => shop.ok('GET', `/v1/checkout/sessions/${session.id}`), (value) => value.status === 'paid')
    const stored = (await pool.query('SELECT "tlsKeyEncrypted" FROM "PixProvider" WHERE "pixKey" = $1', [shop.pixKey])).rows[0].tlsKeyEncrypted as string
    expect(stored).not.toContain('PRIVATE KEY')
  })

  test('without a client certificate, or with one of another CA, the PSP refuses the connection and nothing is configured', async () => {
    for (const input of [{}, { tlsCertificate: certificates.strangerCertificate, tlsKey: certificates.strangerKey, tlsCa: certificates.ca }]) {
      const key = await app.createKey({ account: `pix-mtls-${randomUUID().slice(0, 8)}`, mode: 'live' })
      const refused = await app.graphql(configurePixProvider, { input: { apiUrl: secure.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey: 'x@example.com.br', ...input } }, key)
      expect(refused.body.errors?.[0]?.extensions?.code, JSON.stringify(refused.body)).toBe('unavailable')
      expect((await app.graphql('{ account { pixProvider { apiUrl } } }', {}, key)).body.data.account.pixProvider).toBeNull()
    }
  })
})

/** fetch's shape over node:https with a client certificate (the simulator's controls under mutual TLS). */
function mutualTlsFetch(url: string, init: RequestInit, tls: { ca: string; cert: string; key: string }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(url, { method: init.method ?? 'GET', headers: init.headers as Record<string, string>, ...tls }, (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 0 })))
      incoming.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(typeof init.body === 'string' ? init.body : undefined)
  })
}

describe('a refund whose answer the PSP lost', () => {
  test('the retry with the same Idempotency-Key asks for the same devolução, never a second one', async () => {
    const shop = await merchant('live')
    const customer = await shop.ok('POST', '/v1/customers', { name: 'Reembolso' })
    const session = await shop.ok('POST', '/v1/checkout/sessions', { mode: 'credits', customerId: customer.id, amount: '25.00', currency: 'BRL' })
    await psp.control('POST', `/cob/${session.payment.txid}/pay`)
    await waitFor(() => shop.ok('GET', `/v1/checkout/sessions/${session.id}`), (value) => value.status === 'paid')
    const transactionId = (await pool.query('SELECT id FROM "Transaction" WHERE "checkoutId" = $1', [session.id])).rows[0].id as string
    const idempotencyKey = randomUUID()
    const refund = () => app.request('POST', `/v1/transactions/${transactionId}/refund`, { key: shop.key, body: { amount: '10.00' }, idempotencyKey })

    // The PSP carries the devolução out, but its answer never comes: 503, nothing recorded here.
    await psp.control('POST', '/outage', { mode: 'lose' })
    let lost
    try {
      lost = await refund()
    } finally {
      await psp.control('POST', '/outage', { mode: 'none' })
    }
    expect(lost.status).toBe(503)
    const devolucoes = async () => (await psp.control('GET', '/state')).pix.find((pix: { txid: string }) => pix.txid === session.payment.txid).devolucoes as { valor: string }[]
    expect((await devolucoes()).map((devolucao) => devolucao.valor)).toEqual(['10.00'])
    expect(await count('SELECT count(*) FROM "Refund" WHERE "transactionId" = $1', [transactionId])).toBe(0)

    // The client retries: the same devolução is found, not a second one asked.
    const retried = await refund()
    expect(retried.status).toBe(202)
    expect((await devolucoes()).map((devolucao) => devolucao.valor)).toEqual(['10.00'])
    await psp.control('POST', '/refunds/settle')
    await waitFor(() => shop.ok('GET', `/v1/transactions/${transactionId}`), (value) => value.amountRefunded === '10.00')
    expect((await shop.ok('GET', `/v1/customers/${customer.id}/credits?currency=BRL`)).balance).toBe('15.00')
  }, 60_000)
})
