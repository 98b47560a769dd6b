import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runPixWork } from '../src/payments/pix/runPixWork'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Issue 10 item 6 (CONTRACT §9, §9.1): Pix Automático for pix_auto subscriptions, against the PSP
// simulator as a separate process and real PostgreSQL. Customers' taxId (CPF/CNPJ check digits).

let app: TestApplication
let psp: PixSimulatorProcess
let liveKey: string
let pool: pg.Pool

beforeAll(async () => {
  ;[app, psp] = await Promise.all([startTestApplication({ publicUrlIsBaseUrl: true }), startPixSimulator()])
  liveKey = await app.createKey({ account: `pix-auto-${randomUUID().slice(0, 8)}`, mode: 'live' })
  pool = new pg.Pool({ connectionString: app.databaseUrl, max: 2 })
})
afterAll(async () => {
  await pool?.end()
  await app?.close()
  await psp?.stop()
})

const pixKey = 'automatico@example.com.br'

async function call(method: string, path: string, body?: unknown, key = liveKey) {
  return app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
}

async function ok(method: string, path: string, body?: unknown, key = liveKey) {
  const response = await call(method, path, body, key)
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
  return response.body.data
}

describe('customers\' taxId', () => {
  test('a CPF or CNPJ with valid check digits is stored bare and returned by REST and GraphQL', async () => {
    const created = await ok('POST', '/v1/customers', { name: 'Ana', taxId: '123.456.789-09' })
    expect(created.taxId).toBe('12345678909')
    expect((await ok('GET', `/v1/customers/${created.id}`)).taxId).toBe('12345678909')
    const listed = (await ok('GET', '/v1/customers?limit=100')).items.find((item: { id: string }) => item.id === created.id)
    expect(listed.taxId).toBe('12345678909')
    // The alphanumeric CNPJ (2026) and the numeric one, written with punctuation.
    expect((await ok('PATCH', `/v1/customers/${created.id}`, { taxId: '12.ABC.345/01DE-35' })).taxId).toBe('12ABC34501DE35')
    expect((await ok('PATCH', `/v1/customers/${created.id}`, { taxId: '11.222.333/0001-81' })).taxId).toBe('11222333000181')
    const graph = await app.graphql('query($id: ID!) { customer(id: $id) { taxId } }', { id: created.id }, liveKey)
    expect(graph.body.data.customer.taxId).toBe('11222333000181')
    const viaGraph = await app.graphql('mutation { createCustomer(input: {name: "Bia", taxId: "11144477735"}) { taxId } }', {}, liveKey)
    expect(viaGraph.body.data.createCustomer.taxId).toBe('11144477735')
    expect((await ok('PATCH', `/v1/customers/${created.id}`, { taxId: null })).taxId).toBeNull()
    const openApi = (await app.request('GET', '/v1/openapi.json')).body
    expect(JSON.stringify(openApi.paths['/v1/customers'])).toContain('taxId')
  })

  test('wrong check digits, lengths and characters are 400 validation_error on taxId', async () => {
    const { id } = await ok('POST', '/v1/customers', { name: 'Caio' })
    for (const taxId of ['12345678900', '11111111111', '1234567890', '11222333000180', '12ABC34501DE34', '12abc34501de3x', 'CPF 123', '']) {
      const created = await call('POST', '/v1/customers', { taxId })
      expect(created.status, taxId).toBe(400)
      expect(created.body.error).toMatchObject({ code: 'validation_error', param: 'taxId' })
      const patched = await call('PATCH', `/v1/customers/${id}`, { taxId })
      expect(patched.status, taxId).toBe(400)
      expect(patched.body.error).toMatchObject({ code: 'validation_error', param: 'taxId' })
    }
    const graph = await app.graphql('mutation { createCustomer(input: {taxId: "12345678900"}) { id } }', {}, liveKey)
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'validation_error', param: 'taxId' })
  })

  test('a pix_auto subscription on an account with a PSP needs the customer\'s taxId (422 tax_id_required)', async () => {
    const configured = await app.graphql(
      'mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { configuredAt } }',
      { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey } },
      liveKey,
    )
    expect(configured.body.errors).toBeUndefined()
    const customer = await ok('POST', '/v1/customers', { name: 'Sem documento' })
    const plan = await ok('POST', '/v1/products', { name: 'Plano', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } })
    const refused = await call('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_auto' })
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ code: 'tax_id_required', param: 'customerId' })
    expect(Number((await pool.query('SELECT count(*) FROM "Subscription" WHERE "customerId" = $1', [customer.id])).rows[0].count)).toBe(0)
    // pix_manual needs no document.
    await ok('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_manual' })
  })
})

const day = 86_400
const configure = 'mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { webhookUrl } }'

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition never held')
}

async function count(sql: string, parameters: unknown[]): Promise<number> {
  return Number((await pool.query(sql, parameters)).rows[0].count)
}

/** A test-mode account (its clock can move) with the simulator as its PSP: the provider collects, not the sandbox. */
async function accountWithPsp() {
  const name = `auto-${randomUUID().slice(0, 8)}`
  const key = await app.createKey({ account: name, mode: 'test' })
  const configured = await app.graphql(configure, { input: { apiUrl: psp.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey: `${name}@example.com.br` } }, key)
  expect(configured.body.errors).toBeUndefined()
  const webhookUrl = configured.body.data.configurePixProvider.webhookUrl as string
  const use = (method: string, path: string, body?: unknown) => ok(method, path, body, key)
  const customer = await use('POST', '/v1/customers', { name: 'Pagadora', taxId: '111.444.777-35' })
  const plan = await use('POST', '/v1/products', { name: 'Plano Mensal', type: 'subscription', defaultPrice: { amount: '49.90', currency: 'BRL', model: 'subscription', interval: 'month' } })
  const subscription = await use('POST', '/v1/subscriptions', { customerId: customer.id, productId: plan.id, paymentMethod: 'pix_auto' })
  const invoices = async () => ((await use('GET', '/v1/invoices?limit=100')).items as { id: string; subscriptionId: string; status: string; createdAt: string }[]).filter((invoice) => invoice.subscriptionId === subscription.id)
  const invoice = (id: string) => use('GET', `/v1/invoices/${id}`)
  const status = async () => (await use('GET', `/v1/subscriptions/${subscription.id}`)).status as string
  /** The next period: the account's clock moves 31 days (the renewal is issued), then the PIX worker runs. */
  const renew = async () => {
    const before = new Set((await invoices()).map((item) => item.id))
    await use('POST', '/v1/test_helpers/clock/advance', { seconds: 31 * day })
    await runPixWork(app.application.services.database.prisma, { force: true })
    const renewal = (await invoices()).find((item) => !before.has(item.id))
    expect(renewal?.status).toBe('open')
    return invoice(renewal!.id)
  }
  const recurrence = async () => (await pool.query('SELECT * FROM "PixRecurrence" WHERE "subscriptionId" = $1', [subscription.id])).rows[0]
  const transactions = async (invoiceId: string) => (await pool.query('SELECT status, amount::text FROM "Transaction" WHERE "invoiceId" = $1 ORDER BY "createdAt"', [invoiceId])).rows
  return { key, webhookUrl, use, customer, subscription, invoices, invoice, status, renew, recurrence, transactions }
}

const simulatorState = () => psp.control('GET', '/state')
const simulatedRec = async (idRec: string) => (await simulatorState()).recs.find((rec: { idRec: string }) => rec.idRec === idRec)
const simulatedCobr = async (txid: string) => (await simulatorState()).cobrs.find((cobr: { txid: string }) => cobr.txid === txid)

describe('Pix Automático', () => {
  test('three periods with one rejection: composite QR pays and authorizes, a cobr is paid, a cobr is retried then finally rejected (failed, past_due), its fallback cob is paid (active)', async () => {
    const account = await accountWithPsp()
    const registered = await simulatorState()
    expect(registered.webhookRec).toBe(account.webhookUrl)
    expect(registered.webhookCobr).toBe(account.webhookUrl)

    // Period 1: journey 3. The first invoice shows the composite code; paying it authorizes the recurrence.
    const [first] = await account.invoices()
    const firstPayment = (await account.invoice(first!.id)).payment
    expect(firstPayment).toMatchObject({ rail: 'pix', amountReceived: '0.00' })
    const stored = await account.recurrence()
    expect(stored).toMatchObject({ status: 'CRIADA', txid: firstPayment.txid, retryPolicy: 'PERMITE_3R_7D' })
    const rec = await simulatedRec(stored.idRec)
    expect(rec).toMatchObject({
      status: 'CRIADA',
      vinculo: { contrato: account.subscription.id, devedor: { cpf: '11144477735', nome: 'Pagadora' } },
      calendario: { periodicidade: 'MENSAL' },
      valor: { valorRec: '49.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
      ativacao: { dadosJornada: { txid: firstPayment.txid } },
    })
    // The composite code carries field 80 with the recurrence's location, beside the cob's.
    expect(firstPayment.pixCopiaECola).toContain(rec.loc.location)
    expect(firstPayment.pixCopiaECola).toMatch(/^000201.*80\d\d0014br\.gov\.bcb\.pix25.*6304[0-9A-F]{4}$/)
    await psp.control('POST', `/cob/${firstPayment.txid}/pay`)
    await waitFor(account.status, (value) => value === 'active')
    await waitFor(account.recurrence, (value) => value.status === 'APROVADA')
    expect(await account.transactions(first!.id)).toEqual([{ status: 'succeeded', amount: '49.900000' }])

    // Period 2: the renewal becomes a recurring charge with the 2-day lead; the payer's bank pays it.
    const second = await account.renew()
    expect(second.payment).toMatchObject({ rail: 'pix_automatico', recurrenceId: stored.idRec, status: 'ATIVA', amountReceived: '0.00' })
    const cobr = await simulatedCobr(second.payment.txid)
    expect(cobr).toMatchObject({ idRec: stored.idRec, status: 'ATIVA', valor: { original: '49.90' }, ajusteDiaUtil: true, calendario: { dataDeVencimento: second.payment.dueDate } })
    expect(second.payment.dueDate >= new Date(Date.parse(second.createdAt) + 2 * day * 1000 - 86_400_000).toISOString().slice(0, 10)).toBe(true)
    const graph = await app.graphql('query($id: ID!) { invoice(id: $id) { payment { __typename ... on PixAutomaticoPaymentInstructions { recurrenceId dueDate } } } }', { id: second.id }, account.key)
    expect(graph.body.data.invoice.payment).toEqual({ __typename: 'PixAutomaticoPaymentInstructions', recurrenceId: stored.idRec, dueDate: second.payment.dueDate })
    await psp.control('POST', `/cobr/${second.payment.txid}/pay`)
    await waitFor(() => account.invoice(second.id), (value) => value.status === 'paid')
    expect(await account.transactions(second.id)).toEqual([{ status: 'succeeded', amount: '49.900000' }])
    expect((await account.invoice(second.id)).payment).toMatchObject({ status: 'CONCLUIDA', amountReceived: '49.90' })

    // Period 3: the payer's bank rejects; the policy allows retries, so one is asked for the next day.
    const third = await account.renew()
    expect(third.payment.rail).toBe('pix_automatico')
    await psp.control('POST', `/cobr/${third.payment.txid}/reject`)
    const retried = await waitFor(() => simulatedCobr(third.payment.txid), (value) => value.tentativas.length === 2)
    expect(retried.tentativas.map((attempt: { tipo: string; status: string }) => [attempt.tipo, attempt.status])).toEqual([['AGND', 'REJEITADA'], ['RIFL', 'AGENDADA']])
    expect(retried.status).toBe('ATIVA')
    expect(await account.transactions(third.id)).toEqual([])
    expect(await account.status()).toBe('active')
    // The retry is rejected too, and finally: a failed transaction, the subscription past_due.
    await psp.control('POST', `/cobr/${third.payment.txid}/reject`, { final: true })
    await waitFor(account.status, (value) => value === 'past_due')
    expect(await account.transactions(third.id)).toEqual([{ status: 'failed', amount: '49.900000' }])
    expect((await account.invoice(third.id)).status).toBe('open')
    // The invoice stays payable: the worker gives it an ordinary cob, and paying it makes the subscription active.
    await runPixWork(app.application.services.database.prisma, { force: true })
    const fallback = (await account.invoice(third.id)).payment
    expect(fallback.rail).toBe('pix')
    await psp.control('POST', `/cob/${fallback.txid}/pay`)
    await waitFor(account.status, (value) => value === 'active')
    expect(await account.transactions(third.id)).toEqual([
      { status: 'failed', amount: '49.900000' },
      { status: 'succeeded', amount: '49.900000' },
    ])

    // The events the renewals and the PSP's callbacks produced, oldest first.
    const events = ((await account.use('GET', '/v1/events?limit=500')).items as { type: string; data: Record<string, unknown> }[]).reverse()
    const of = (type: string) => events.filter((event) => event.type === type).map((event) => event.data)
    expect(of('invoice.created').map((invoice) => invoice.id)).toEqual([first!.id, second.id, third.id])
    expect(of('invoice.paid').map((invoice) => invoice.id)).toEqual([first!.id, second.id, third.id])
    expect(of('invoice.payment_failed').map((invoice) => [invoice.id, invoice.status])).toEqual([[third.id, 'open']])
    expect(of('transaction.failed').map((transaction) => [transaction.invoiceId, transaction.status])).toEqual([[third.id, 'failed']])
    expect(of('transaction.succeeded').map((transaction) => transaction.invoiceId)).toEqual([first!.id, second.id, third.id])
    // Paid, two period changes, past_due at the final rejection, active again when the fallback was paid.
    expect(of('subscription.updated').map((update) => [update.status, update.currentPeriodStart])).toEqual([
      ['active', (await account.invoice(first!.id)).periodStart],
      ['active', second.periodStart],
      ['active', third.periodStart],
      ['past_due', third.periodStart],
      ['active', third.periodStart],
    ])
  })

  test('forged and replayed rec/cobr callbacks settle nothing more; a wrong token is 404', async () => {
    const account = await accountWithPsp()
    const [first] = await account.invoices()
    const firstPayment = (await account.invoice(first!.id)).payment
    const { idRec } = await account.recurrence()
    // Forged: claims the recurrence approved and a charge paid; the PSP says otherwise, nothing moves.
    const forgedRec = await fetch(`${account.webhookUrl}/rec`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ recs: [{ idRec, status: 'APROVADA' }] }) })
    expect(forgedRec.status).toBe(200)
    expect((await account.recurrence()).status).toBe('CRIADA')
    const forgedCobr = await fetch(`${account.webhookUrl}/cobr`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cobsr: [{ idRec, txid: 'x'.repeat(35), status: 'CONCLUIDA' }] }) })
    expect(forgedCobr.status).toBe(200)
    const wrongToken = await fetch(`${account.webhookUrl.replace(/[^/]+$/, 'A'.repeat(32))}/cobr`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cobsr: [] }) })
    expect(wrongToken.status).toBe(404)

    await psp.control('POST', `/cob/${firstPayment.txid}/pay`)
    await waitFor(account.recurrence, (value) => value.status === 'APROVADA')
    await waitFor(account.status, (value) => value === 'active')
    const second = await account.renew()
    await psp.control('POST', `/cobr/${second.payment.txid}/pay`)
    await waitFor(() => account.invoice(second.id), (value) => value.status === 'paid')
    // The PSP's own callback replayed, many times at once: one payment, one transaction.
    const callback = (await simulatorState()).callbacks.find((entry: { url: string; body: { cobsr?: { txid: string }[] } }) => entry.url.endsWith('/cobr') && entry.body.cobsr?.[0]?.txid === second.payment.txid)
    const replays = await Promise.all(Array.from({ length: 8 }, () => fetch(callback.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(callback.body) })))
    expect(replays.map((response) => response.status)).toEqual(Array(8).fill(200))
    await runPixWork(app.application.services.database.prisma, { force: true })
    expect(await account.transactions(second.id)).toEqual([{ status: 'succeeded', amount: '49.900000' }])
    expect(await count('SELECT count(*) FROM "PixPayment" WHERE txid = $1', [second.payment.txid])).toBe(1)
  })

  test('a recurring charge the PSP answers with an error holds back no other: reconciliation settles the rest, then it, once', async () => {
    const account = await accountWithPsp()
    const productId = (await account.use('GET', `/v1/subscriptions/${account.subscription.id}`)).productId
    const other = await account.use('POST', '/v1/subscriptions', { customerId: account.customer.id, productId, paymentMethod: 'pix_auto' })
    const subscriptions = [account.subscription.id, other.id]
    const firstInvoices = (await pool.query('SELECT id FROM "Invoice" WHERE "subscriptionId" = ANY($1)', [subscriptions])).rows as { id: string }[]
    for (const { id } of firstInvoices) await psp.control('POST', `/cob/${(await account.invoice(id)).payment.txid}/pay`)
    await waitFor(() => count(`SELECT count(*) FROM "PixRecurrence" WHERE "subscriptionId" = ANY($1) AND status = 'APROVADA'`, [subscriptions]), (approved) => approved === 2)
    await waitFor(() => count(`SELECT count(*) FROM "Invoice" WHERE "subscriptionId" = ANY($1) AND status = 'paid'`, [subscriptions]), (paid) => paid === 2)
    await account.renew()
    // The charge reconciliation would confirm first is the one the PSP fails on.
    const charges = (await pool.query('SELECT txid, "invoiceId" FROM "PixRecurringCharge" c JOIN "Invoice" i ON i.id = c."invoiceId" WHERE i."subscriptionId" = ANY($1) ORDER BY c."updatedAt"', [subscriptions])).rows as { txid: string; invoiceId: string }[]
    expect(charges).toHaveLength(2)
    const [failing, healthy] = charges as [{ txid: string; invoiceId: string }, { txid: string; invoiceId: string }]
    for (const { txid } of charges) await psp.control('POST', `/cobr/${txid}/pay`, { callback: false })
    await psp.control('POST', `/cob/${failing.txid}/refuse`, { refuse: true })
    try {
      await runPixWork(app.application.services.database.prisma, { force: true })
      expect((await account.invoice(healthy.invoiceId)).status).toBe('paid')
      expect((await account.invoice(failing.invoiceId)).status).toBe('open')
    } finally {
      await psp.control('POST', `/cob/${failing.txid}/refuse`, { refuse: false })
    }
    await runPixWork(app.application.services.database.prisma, { force: true })
    expect((await account.invoice(failing.invoiceId)).status).toBe('paid')
    await runPixWork(app.application.services.database.prisma, { force: true })
    for (const { invoiceId } of charges) expect(await account.transactions(invoiceId)).toEqual([{ status: 'succeeded', amount: '49.900000' }])
  })

  test('callbacks that never came: reconciliation approves the recurrence and settles the cobr; canceling the subscription cancels the recurrence at the PSP', async () => {
    const account = await accountWithPsp()
    const [first] = await account.invoices()
    const firstPayment = (await account.invoice(first!.id)).payment
    await psp.control('POST', `/cob/${firstPayment.txid}/pay`, { callback: false })
    await runPixWork(app.application.services.database.prisma, { force: true })
    expect((await account.invoice(first!.id)).status).toBe('paid')
    const { idRec } = await account.recurrence()
    expect((await account.recurrence()).status).toBe('APROVADA')

    const second = await account.renew()
    expect(second.payment.rail).toBe('pix_automatico')
    await psp.control('POST', `/cobr/${second.payment.txid}/pay`, { callback: false })
    expect((await account.invoice(second.id)).status).toBe('open')
    await runPixWork(app.application.services.database.prisma, { force: true })
    expect((await account.invoice(second.id)).status).toBe('paid')
    expect(await account.transactions(second.id)).toEqual([{ status: 'succeeded', amount: '49.900000' }])

    await account.use('POST', `/v1/subscriptions/${account.subscription.id}/cancel`, {})
    await runPixWork(app.application.services.database.prisma, { force: true })
    expect((await simulatedRec(idRec)).status).toBe('CANCELADA')
    expect((await account.recurrence()).status).toBe('CANCELADA')
  })

  test('the simulator is strict: a cobr due sooner than 2 days, on an unapproved recurrence or without its fields is refused (problem+json)', async () => {
    const account = await accountWithPsp()
    const { idRec } = await account.recurrence()
    const token = await fetch(`${psp.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('sim-client:sim-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    }).then((response) => response.json())
    const put = (body: unknown) =>
      fetch(`${psp.apiUrl}/cobr/${'t'.repeat(30)}`, { method: 'PUT', headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    const inTenDays = new Date(Date.now() + 10 * day * 1000).toISOString().slice(0, 10)
    const unapproved = await put({ idRec, calendario: { dataDeVencimento: inTenDays }, valor: { original: '49.90' }, ajusteDiaUtil: true })
    expect(unapproved.status).toBe(400)
    expect(unapproved.headers.get('content-type')).toContain('application/problem+json')
    expect((await unapproved.json()).type).toMatch(/CobROperacaoInvalida$/)
    await psp.control('POST', `/rec/${idRec}/approve`)
    const tomorrow = new Date(Date.now() + day * 1000).toISOString().slice(0, 10)
    const tooSoon = await put({ idRec, calendario: { dataDeVencimento: tomorrow }, valor: { original: '49.90' }, ajusteDiaUtil: true })
    expect(tooSoon.status).toBe(400)
    const noAmount = await put({ idRec, calendario: { dataDeVencimento: inTenDays }, ajusteDiaUtil: true })
    expect(noAmount.status).toBe(400)
    const accepted = await put({ idRec, calendario: { dataDeVencimento: inTenDays }, valor: { original: '49.90' }, ajusteDiaUtil: true })
    expect(accepted.status).toBe(201)
  })
})
