import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Connections as a dashboard uses them: filters, orders, totalCount, paging both ways, cursors bound to
// their list, filters and order, and nested connections that cost the same queries for 3 or 12 customers.

let app: TestApplication
let key: string
let counting = false
let queries = 0

interface SeededCustomer { id: string; name: string | null; email: string; externalId: string; createdAt: Date }
interface SeededInvoice { id: string; customerId: string; status: 'open' | 'paid'; currency: 'USDC' | 'BRL'; amountDue: string; dueDate: Date; createdAt: Date }
interface SeededTransaction { id: string; customerId: string; amount: string; createdAt: Date }

const customers: SeededCustomer[] = []
const invoices: SeededInvoice[] = []
const transactions: SeededTransaction[] = []
const base = Date.parse('2026-06-01T00:00:00Z')
const names = ['Ana', 'bruno', 'Anabel', 'Carla', 'andré', null, 'Davi', 'Ana', '100%_real', 'Bea', 'anne', 'Zé']

function at(minutes: number): Date {
  return new Date(base + minutes * 60_000)
}

beforeAll(async () => {
  app = await startTestApplication({ onQuery: () => (counting ? (queries += 1) : undefined) })
  key = await app.createKey({ account: 'connections' })
  const account = await app.application.services.database.prisma.account.findFirstOrThrow({ where: { name: 'connections' } })
  const client = new pg.Client({ connectionString: app.databaseUrl })
  await client.connect()
  try {
    await client.query(`INSERT INTO "Product" (id, "accountId", name, type, status, "createdAt", "updatedAt") VALUES ('prod_conn', $1, 'Plan', 'subscription', 'active', now(), now())`, [account.id])
    await client.query(
      `INSERT INTO "Price" (id, "accountId", "productId", amount, currency, model, interval, active, "createdAt", "updatedAt") VALUES ('price_conn', $1, 'prod_conn', 1, 'USDC', 'subscription', 'month', true, now(), now())`,
      [account.id],
    )
    for (let index = 0; index < 12; index += 1) {
      const customer = { id: `cus_conn${String(index).padStart(2, '0')}`, name: names[index]!, email: `${index % 2 === 0 ? 'Team' : 'ops'}${index}@example.com`, externalId: `ext-${index % 3}-${index}`, createdAt: at(index) }
      customers.push(customer)
      await client.query(`INSERT INTO "Customer" (id, "accountId", name, email, "externalId", metadata, "createdAt", "updatedAt") VALUES ($1, $2, $3, $4, $5, '{"k":"v"}', $6, $6)`, [
        customer.id, account.id, customer.name, customer.email, customer.externalId, customer.createdAt,
      ])
      const subscriptionId = `sub_conn${index}`
      await client.query(
        `INSERT INTO "Subscription" (id, "accountId", "customerId", "productId", "priceId", status, "paymentMethod", "billingAnchor", "currentPeriodStart", "currentPeriodEnd", "createdAt")
         VALUES ($1, $2, $3, 'prod_conn', 'price_conn', 'active', 'usdc_invoice', $4, $4, $4, $4)`,
        [subscriptionId, account.id, customer.id, customer.createdAt],
      )
      for (let number = 0; number < 3; number += 1) {
        const sequence = index * 3 + number
        const invoice: SeededInvoice = {
          id: `in_conn${String(sequence).padStart(2, '0')}`,
          customerId: customer.id,
          status: sequence % 3 === 0 ? 'paid' : 'open',
          currency: sequence % 4 === 0 ? 'BRL' : 'USDC',
          // Ties on purpose (every 7th amount repeats), so order by amount must break them by id.
          amountDue: `${(sequence * 37) % 50}.${sequence % 7 === 0 ? '00' : '50'}0000`,
          dueDate: at(1000 - sequence * 5),
          createdAt: at(100 + sequence),
        }
        invoices.push(invoice)
        await client.query(
          `INSERT INTO "Invoice" (id, "accountId", "customerId", "subscriptionId", status, currency, total, "amountDue", "amountPaid", "paymentMethod", "periodStart", "periodEnd", "dueDate", "createdAt")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7, 0, 'usdc_invoice', $8, $8, $9, $10)`,
          [invoice.id, account.id, customer.id, subscriptionId, invoice.status, invoice.currency, invoice.amountDue, at(sequence), invoice.dueDate, invoice.createdAt],
        )
        const transaction = { id: `txn_conn${String(sequence).padStart(2, '0')}`, customerId: customer.id, amount: `${(sequence * 13) % 29}.000000`, createdAt: at(200 + sequence) }
        transactions.push(transaction)
        await client.query(
          `INSERT INTO "Transaction" (id, "accountId", "customerId", "invoiceId", status, amount, currency, "createdAt") VALUES ($1, $2, $3, $4, 'succeeded', $5, 'USDC', $6)`,
          [transaction.id, account.id, customer.id, invoice.id, transaction.amount, transaction.createdAt],
        )
      }
    }
  } finally {
    await client.end()
  }
}, 120_000)

afterAll(async () => {
  await app.close()
})

async function graph(query: string, variables: Record<string, unknown> = {}) {
  const response = await app.graphql(query, variables, key)
  return response.body as { data: any; errors?: { message: string; extensions: { code: string; param?: string } }[] } // eslint-disable-line @typescript-eslint/no-explicit-any -- response JSON
}

async function data(query: string, variables: Record<string, unknown> = {}) {
  const body = await graph(query, variables)
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined()
  return body.data
}

const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((edge) => edge.node.id)
const newestFirst = <T extends { id: string; createdAt: Date }>(rows: T[]) => [...rows].sort((left, right) => right.createdAt.getTime() - left.createdAt.getTime() || (left.id < right.id ? 1 : -1))
const byDecimal = (field: 'amountDue' | 'amount', descending: boolean) => (left: Record<string, string>, right: Record<string, string>) => {
  const difference = Number(left[field]) - Number(right[field])
  if (difference !== 0) return descending ? -difference : difference
  return (left.id! < right.id! ? -1 : 1) * (descending ? -1 : 1)
}

describe('connections for dashboards', () => {
  test('totalCount, and paging forward then back again lands on the same pages', async () => {
    const page = `query($first: Int, $after: String, $last: Int, $before: String) {
      customers(first: $first, after: $after, last: $last, before: $before) {
        totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`
    const expected = newestFirst(customers).map((customer) => customer.id)
    const first = (await data(page, { first: 5 })).customers
    expect(first.totalCount).toBe(12)
    expect(ids(first)).toEqual(expected.slice(0, 5))
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    const second = (await data(page, { first: 5, after: first.pageInfo.endCursor })).customers
    expect(ids(second)).toEqual(expected.slice(5, 10))
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const third = (await data(page, { first: 5, after: second.pageInfo.endCursor })).customers
    expect(ids(third)).toEqual(expected.slice(10))
    expect(third.pageInfo.hasNextPage).toBe(false)

    // Back: `last` before the start of a page is exactly the page before it.
    const back = (await data(page, { last: 5, before: third.pageInfo.startCursor })).customers
    expect(ids(back)).toEqual(expected.slice(5, 10))
    expect(back.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true })
    const backAgain = (await data(page, { last: 5, before: back.pageInfo.startCursor })).customers
    expect(ids(backAgain)).toEqual(expected.slice(0, 5))
    expect(backAgain.pageInfo.hasPreviousPage).toBe(false)
    // `last` alone: the end of the list (the oldest), in list order.
    expect(ids((await data(page, { last: 3 })).customers)).toEqual(expected.slice(9))
    // Both bounds at once: what lies between two cursors.
    const between = (await data(page, { first: 10, after: first.edges[1].cursor, before: second.edges[2].cursor })).customers
    expect(ids(between)).toEqual(expected.slice(2, 7))

    const both = await graph('{ customers(first: 2, last: 2) { edges { node { id } } } }')
    expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', param: 'last' })
    const tooMany = await graph('{ customers(last: 501) { edges { node { id } } } }')
    expect(tooMany.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', param: 'last' })
  })

  test('filters: status, currency, createdAt range, customer; totalCount counts the filter', async () => {
    const from = at(110)
    const to = at(130)
    const result = await data(
      `query($from: DateTime, $to: DateTime, $customerId: ID) {
        open: invoices(status: open, currency: USDC, createdAt: { from: $from, to: $to }, first: 100) { totalCount edges { node { id status currency createdAt } } }
        mine: invoices(customerId: $customerId) { totalCount edges { node { id customerId } } }
        paidTransactions: transactions(status: succeeded, createdAt: { from: $to }) { totalCount }
      }`,
      { from: from.toISOString(), to: to.toISOString(), customerId: customers[4]!.id },
    )
    const expectedOpen = newestFirst(invoices.filter((invoice) => invoice.status === 'open' && invoice.currency === 'USDC' && invoice.createdAt >= from && invoice.createdAt < to))
    expect(expectedOpen.length).toBeGreaterThan(3)
    expect(ids(result.open)).toEqual(expectedOpen.map((invoice) => invoice.id))
    expect(result.open.totalCount).toBe(expectedOpen.length)
    expect(ids(result.mine)).toEqual(newestFirst(invoices.filter((invoice) => invoice.customerId === customers[4]!.id)).map((invoice) => invoice.id))
    expect(result.mine.totalCount).toBe(3)
    expect(result.paidTransactions.totalCount).toBe(transactions.filter((transaction) => transaction.createdAt >= to).length)
  })

  test('customers by name, email and externalId prefix; wildcards match themselves', async () => {
    const result = await data(`{
      an: customers(namePrefix: "an") { totalCount edges { node { name } } }
      team: customers(emailPrefix: "TEAM1") { edges { node { email } } }
      ext: customers(externalIdPrefix: "ext-1-") { edges { node { externalId } } }
      wildcard: customers(namePrefix: "100%_") { edges { node { name } } }
      literal: customers(namePrefix: "1_0") { totalCount }
      both: customers(namePrefix: "an", emailPrefix: "ops") { edges { node { name email } } }
    }`)
    expect(result.an.edges.map((edge: { node: { name: string } }) => edge.node.name).sort()).toEqual(['Ana', 'Ana', 'Anabel', 'andré', 'anne'])
    expect(result.an.totalCount).toBe(5)
    expect(result.team.edges.map((edge: { node: { email: string } }) => edge.node.email).sort()).toEqual(['Team10@example.com'])
    expect(result.ext.edges.map((edge: { node: { externalId: string } }) => edge.node.externalId).sort()).toEqual(['ext-1-1', 'ext-1-10', 'ext-1-4', 'ext-1-7'])
    expect(result.wildcard.edges).toEqual([{ node: { name: '100%_real' } }])
    expect(result.literal.totalCount).toBe(0)
    expect(result.both.edges.map((edge: { node: { name: string } }) => edge.node.name).sort()).toEqual(['Ana'])
  })

  test('orderBy: invoices by amountDue and dueDate, transactions by amount, customers by name, paged through', async () => {
    async function pageThrough(field: string, order: string, size: number, nodeFields: string): Promise<Record<string, string>[]> {
      const seen: Record<string, string>[] = []
      let after: string | null = null
      for (;;) {
        const result: any = await data(`query($after: String) { list: ${field}(first: ${size}, after: $after, orderBy: ${order}) { edges { node { id ${nodeFields} } } pageInfo { hasNextPage endCursor } } }`, { after }) // eslint-disable-line @typescript-eslint/no-explicit-any -- response JSON
        seen.push(...result.list.edges.map((edge: { node: Record<string, string> }) => edge.node))
        if (!result.list.pageInfo.hasNextPage) return seen
        after = result.list.pageInfo.endCursor
      }
    }
    const byAmount = await pageThrough('invoices', '{ field: AMOUNT_DUE, direction: ASC }', 7, 'amountDue')
    expect(byAmount.map((invoice) => invoice.id)).toEqual([...invoices].sort(byDecimal('amountDue', false) as never).map((invoice) => invoice.id))
    const byAmountDown = await pageThrough('invoices', '{ field: AMOUNT_DUE }', 5, 'amountDue')
    expect(byAmountDown.map((invoice) => invoice.id)).toEqual([...invoices].sort(byDecimal('amountDue', true) as never).map((invoice) => invoice.id))
    const byDueDate = await pageThrough('invoices', '{ field: DUE_DATE, direction: ASC }', 10, 'dueDate')
    expect(byDueDate.map((invoice) => invoice.id)).toEqual([...invoices].sort((left, right) => left.dueDate.getTime() - right.dueDate.getTime()).map((invoice) => invoice.id))
    const byTransactionAmount = await pageThrough('transactions', '{ field: AMOUNT, direction: DESC }', 8, 'amount')
    expect(byTransactionAmount.map((transaction) => transaction.id)).toEqual([...transactions].sort(byDecimal('amount', true) as never).map((transaction) => transaction.id))
    const byName = await pageThrough('customers', '{ field: NAME, direction: ASC }', 4, 'name')
    const names = byName.map((customer) => customer.name)
    expect(names.at(-1)).toBeNull()
    expect(names).toHaveLength(12)
    // The database's collation decides the order of names; the pages must agree with one sorted read.
    const oneRead = await data('{ customers(first: 100, orderBy: { field: NAME, direction: ASC }) { edges { node { id } } } }')
    expect(byName.map((customer) => customer.id)).toEqual(ids(oneRead.customers))
    // And backward from the end, by name descending: the null name comes first.
    const descending = await data('{ customers(last: 3, orderBy: { field: NAME, direction: DESC }) { edges { node { name } } } }')
    expect(descending.customers.edges.map((edge: { node: { name: string } }) => edge.node.name)).toEqual([...names.slice(0, 3)].reverse())
  })

  test('a cursor is bound to its list, filters and order: another one is invalid_cursor', async () => {
    const open = await data('{ invoices(status: open, first: 2) { pageInfo { endCursor } } }')
    const cursor = open.invoices.pageInfo.endCursor
    expect((await graph('query($after: String) { invoices(status: open, first: 2, after: $after) { edges { node { id } } } }', { after: cursor })).errors).toBeUndefined()
    for (const other of [
      'invoices(status: paid, first: 2, after: $after)',
      'invoices(first: 2, after: $after)',
      'invoices(status: open, first: 2, after: $after, orderBy: { field: AMOUNT_DUE })',
      'invoices(status: open, currency: BRL, first: 2, after: $after)',
      'transactions(first: 2, after: $after)',
    ]) {
      const refused = await graph(`query($after: String) { ${other} { edges { node { id } } } }`, { after: cursor })
      expect(refused.errors?.[0]?.extensions, other).toMatchObject({ code: 'invalid_cursor', param: 'after' })
    }
    const before = await graph('query($before: String) { invoices(last: 2, before: $before) { edges { node { id } } } }', { before: cursor })
    expect(before.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_cursor', param: 'before' })
    // Argument order does not matter; the same filters are the same list.
    const ordered = await data('{ invoices(first: 1, orderBy: { field: AMOUNT_DUE }, currency: USDC, status: open) { pageInfo { endCursor } } }')
    const same = await graph('query($after: String) { invoices(status: open, currency: USDC, orderBy: { direction: DESC, field: AMOUNT_DUE }, after: $after) { totalCount } }', { after: ordered.invoices.pageInfo.endCursor })
    expect(same.errors).toBeUndefined()
  })

  test('nested connections filter, order and count, with the same queries for 3 or 12 customers', async () => {
    const nested = `query($first: Int) { customers(first: $first, orderBy: { field: CREATED_AT, direction: ASC }) { edges { node {
      id
      invoices(status: open, orderBy: { field: AMOUNT_DUE, direction: DESC }, first: 1) { totalCount edges { node { id amountDue } } pageInfo { hasNextPage } }
      transactions(last: 1) { totalCount edges { node { id } } }
    } } } }`
    const run = async (first: number) => {
      queries = 0
      counting = true
      const result = await data(nested, { first })
      counting = false
      return { queries, customers: result.customers.edges.map((edge: { node: unknown }) => edge.node) }
    }
    const few = await run(3)
    const many = await run(12)
    expect(many.queries).toBe(few.queries)
    // customers, each nested page, each nested count: no query per customer.
    expect(many.queries).toBeLessThanOrEqual(5)
    for (const [index, customer] of many.customers.entries()) {
      const open = invoices.filter((invoice) => invoice.customerId === customers[index]!.id && invoice.status === 'open').sort(byDecimal('amountDue', true) as never)
      expect(customer.id).toBe(customers[index]!.id)
      expect(customer.invoices.totalCount).toBe(open.length)
      expect(ids(customer.invoices)).toEqual([open[0]!.id])
      expect(customer.invoices.pageInfo.hasNextPage).toBe(open.length > 1)
      expect(customer.transactions.totalCount).toBe(3)
      // `last: 1` of newest first: the customer's oldest transaction.
      expect(ids(customer.transactions)).toEqual([transactions.filter((transaction) => transaction.customerId === customer.id)[0]!.id])
    }
  })
})
