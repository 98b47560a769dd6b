import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { restRoutes } from '../rest/restRoutes'
import { errorStatuses, isErrorCode } from '../src/domain/DomainError'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// What a generated client gets from /v1/openapi.json (issue 9 §2): every refusal an operation can answer
// with its status and closed set of codes, the constraints (ranges, patterns, sizes, defaults), no null
// in query parameters, the Idempotency-Key header where it counts, and tags. The last test generates
// types with openapi-typescript from the live document and type-checks, then runs, a client's flow.

interface Schema {
  [keyword: string]: unknown
}
interface Parameter {
  name: string
  in: string
  required: boolean
  schema: Schema
}
interface Operation {
  operationId: string
  tags: string[]
  parameters: Parameter[]
  requestBody?: { content: { 'application/json': { schema: Schema } } }
  responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: Schema } } }>
}
interface Document {
  paths: Record<string, Record<string, Operation>>
  tags: { name: string; description?: string }[]
  components: { responses: Record<string, { content: { 'application/json': { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } } } }> }
}

let app: TestApplication
let document: Document
let folder: string
beforeAll(async () => {
  app = await startTestApplication()
  const response = await app.request('GET', '/v1/openapi.json', { key: null })
  expect(response.status).toBe(200)
  document = response.body
  folder = await mkdtemp(path.join(tmpdir(), 'openapi-client-'))
})
afterAll(async () => {
  await app?.close()
  if (folder) await rm(folder, { recursive: true, force: true })
})

function operation(route: string, method: string): Operation {
  const found = document.paths[route]?.[method]
  if (!found) throw new Error(`no ${method} ${route} in the document`)
  return found
}

/** The codes an operation documents for `status` (its response is a reference to a shared one). */
function codesOf(found: Operation, status: number): string[] | undefined {
  const response = found.responses[String(status)]
  if (!response) return undefined
  const shared = response.$ref ? document.components.responses[response.$ref.replace('#/components/responses/', '')] : undefined
  if (response.$ref && !shared) throw new Error(`dangling ${response.$ref}`)
  return shared?.content['application/json'].schema.properties.error.properties.code.enum
}

function property(schema: Schema, name: string): Schema {
  const object = (schema.anyOf as Schema[] | undefined)?.[0] ?? schema
  return (object.properties as Record<string, Schema>)[name]!
}

function nonNull(schema: Schema): Schema {
  return (schema.anyOf as Schema[] | undefined)?.[0] ?? schema
}

function successData(found: Operation, status: number): Schema {
  return property(found.responses[String(status)]!.content!['application/json'].schema, 'data')
}

describe('error responses', () => {
  test('every operation lists each status it can refuse with, and only codes of that status', () => {
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const [method, found] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${route}`
        expect(found.responses.default, where).toBeUndefined()
        for (const status of [400, 401, 403, 429, 500, 503]) expect(codesOf(found, status), `${where} ${status}`).toBeDefined()
        expect(codesOf(found, 401), where).toEqual(['unauthorized'])
        expect(codesOf(found, 403), where).toEqual(['insufficient_scope'])
        expect(codesOf(found, 429), where).toEqual(['rate_limited'])
        expect(codesOf(found, 400), where).toContain('validation_error')
        // A GET reads no body: none of the body's refusals.
        if (method === 'get') expect([codesOf(found, 413), codesOf(found, 415), codesOf(found, 400)?.includes('invalid_json')], where).toEqual([undefined, undefined, false])
        for (const status of Object.keys(found.responses).map(Number).filter((status) => status >= 400)) {
          for (const code of codesOf(found, status)!) {
            expect(isErrorCode(code), `${where}: ${code}`).toBe(true)
            expect(errorStatuses[code as keyof typeof errorStatuses], `${where}: ${code} under ${status}`).toBe(status)
          }
        }
      }
    }
  })

  test('an operation\'s own refusals are its route\'s, beside the Idempotency-Key\'s and the cursor\'s', () => {
    expect(codesOf(operation('/v1/customers', 'post'), 409)).toEqual(['externalId_conflict', 'idempotency_key_in_use'])
    expect(codesOf(operation('/v1/customers', 'post'), 404)).toBeUndefined()
    expect(codesOf(operation('/v1/customers', 'post'), 400)).toEqual(['invalid_json', 'validation_error', 'idempotency_key_required'])
    expect(codesOf(operation('/v1/customers', 'post'), 422)).toEqual(['idempotency_key_reused'])
    expect(codesOf(operation('/v1/customers', 'get'), 400)).toEqual(['validation_error', 'invalid_cursor'])
    expect(codesOf(operation('/v1/customers/{customerId}', 'get'), 404)).toEqual(['customer_not_found'])
    expect(codesOf(operation('/v1/products/{productId}/archive', 'post'), 409)).toEqual(['active_subscription', 'idempotency_key_in_use'])
    expect(codesOf(operation('/v1/subscriptions', 'post'), 422)).toEqual(['idempotency_key_reused', 'rail_not_available', 'tax_id_required'])
    expect(codesOf(operation('/v1/subscriptions', 'post'), 502)).toEqual(['provider_error'])
    expect(codesOf(operation('/v1/subscriptions/{subscriptionId}', 'get'), 502)).toBeUndefined()
    // Usage events keep their own key in the body: no header, but the body key's refusal.
    expect(codesOf(operation('/v1/usage/events', 'post'), 409)).toBeUndefined()
    expect(codesOf(operation('/v1/usage/events', 'post'), 422)).toEqual(['idempotency_key_reused'])
    expect(codesOf(operation('/v1/test_helpers/clock/advance', 'post'), 404)).toEqual(['not_found'])
  })
})

describe('constraints', () => {
  test('limit has its list\'s range and default; query parameters are never null', () => {
    const limit = (route: string) => operation(route, 'get').parameters.find((parameter) => parameter.name === 'limit')!.schema
    expect(limit('/v1/customers')).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 })
    expect(limit('/v1/invoices')).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 100 })
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const found of Object.values(methods)) {
        for (const parameter of found.parameters.filter((candidate) => candidate.in === 'query')) {
          expect(JSON.stringify(parameter.schema), `${route} ?${parameter.name}`).not.toContain('null')
        }
      }
    }
    expect(operation('/v1/customers/{customerId}/credits', 'get').parameters.find((parameter) => parameter.name === 'currency')!.schema).toEqual({
      type: 'string',
      enum: ['BRL', 'USDC'],
      default: 'USDC',
    })
  })

  test('quantities are above zero, amounts are decimal strings, metadata is an open record of at most 50 keys', () => {
    const usage = operation('/v1/usage/events', 'post').requestBody!.content['application/json'].schema
    expect(property(usage, 'quantity')).toMatchObject({ type: 'number', exclusiveMinimum: 0 })
    expect(property(operation('/v1/access/check', 'post').requestBody!.content['application/json'].schema, 'quantity')).toMatchObject({ exclusiveMinimum: 0 })
    expect(nonNull(property(usage, 'metadata'))).toMatchObject({ type: 'object', additionalProperties: true, maxProperties: 50 })
    expect(nonNull(property(operation('/v1/customers', 'post').requestBody!.content['application/json'].schema, 'metadata'))).toMatchObject({ maxProperties: 50 })

    const priceBody = operation('/v1/products/{productId}/prices', 'post').requestBody!.content['application/json'].schema
    const inputPattern = new RegExp(property(priceBody, 'amount').pattern as string)
    expect(['29.90', '5', '0.000001'].filter((text) => inputPattern.test(text))).toHaveLength(3)
    expect(['-1', '1e3', '29,90', '.5', ' 1'].filter((text) => inputPattern.test(text))).toEqual([])
    const outputPattern = new RegExp(property(successData(operation('/v1/products/{productId}/prices', 'post'), 201), 'amount').pattern as string)
    expect(['29.90', '10.000000'].filter((text) => outputPattern.test(text))).toHaveLength(2)
    expect(['29.9', '10', '-1.00'].filter((text) => outputPattern.test(text))).toEqual([])
    expect(property(successData(operation('/v1/customers/{customerId}/credits', 'get'), 200), 'balance').pattern).toMatch(/^\^-\?/)
    expect(nonNull(property(successData(operation('/v1/customers/{customerId}', 'get'), 200), 'metadata'))).toMatchObject({ type: 'object', additionalProperties: true })
  })
})

test('the Idempotency-Key header is a parameter exactly where it is honoured, required where it must be sent', () => {
  for (const route of restRoutes) {
    const header = operation(route.path, route.method.toLowerCase()).parameters.find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')
    const where = `${route.method} ${route.path}`
    if (route.idempotency === 'ignored') expect(header, where).toBeUndefined()
    else expect(header, where).toMatchObject({ required: route.idempotency === 'required', schema: { type: 'string', minLength: 1, maxLength: 255 } })
  }
})

test('every operation has a tag, and every tag is listed with a description', () => {
  const listed = new Map(document.tags.map((tag) => [tag.name, tag.description]))
  const used = new Set<string>()
  for (const [route, methods] of Object.entries(document.paths)) {
    for (const found of Object.values(methods)) {
      expect(found.tags, route).toHaveLength(1)
      expect(listed.get(found.tags[0]!), `${route}: tag ${found.tags[0]}`).toEqual(expect.any(String))
      used.add(found.tags[0]!)
    }
  }
  expect([...listed.keys()].sort()).toEqual([...used].sort())
  expect(operation('/v1/customers/{customerId}/credits', 'get').tags).toEqual(['customers'])
  expect(operation('/v1/test_helpers/invoices/{invoiceId}/pay', 'post').tags).toEqual(['test_helpers'])
})

// A client as an integrator writes one over the generated types: bodies, parameters and answers all come
// from `paths`. The `@ts-expect-error` lines fail the type check when the document stops saying a rule.
const flow = `
import type { paths } from './api'

type Method = 'get' | 'post' | 'patch' | 'delete'
type Operation<Path extends keyof paths, M extends Method> = NonNullable<paths[Path][M]>
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never
type Parameters<Op> = Op extends { parameters: infer Given } ? Omit<Given, 'cookie'> : never
type Body<Op> = Op extends { requestBody: { content: { 'application/json': infer Given } } } ? { body: Given } : { body?: undefined }
type Answer<Op> = Op extends { responses: infer Responses } ? { [Status in keyof Responses]: { status: Status; body: Json<Responses[Status]> } }[keyof Responses] : never
type Query<Path extends keyof paths> = NonNullable<Parameters<Operation<Path, 'get'>>['query']>

export interface Client {
  baseUrl: string
  key: string
}

export async function send<Path extends keyof paths, M extends Method>(client: Client, route: Path, method: M, request: Parameters<Operation<Path, M>> & Body<Operation<Path, M>>): Promise<Answer<Operation<Path, M>>> {
  const given = request as { path?: Record<string, string>; query?: Record<string, string | number | undefined>; header?: Record<string, string>; body?: unknown }
  const url = new URL(client.baseUrl + String(route).replace(/\\{(\\w+)\\}/g, (_, name: string) => encodeURIComponent(given.path?.[name] ?? '')))
  for (const [name, value] of Object.entries(given.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value))
  const response = await fetch(url, {
    method: method.toUpperCase(),
    headers: { authorization: 'Bearer ' + client.key, ...(given.body === undefined ? {} : { 'content-type': 'application/json' }), ...given.header },
    ...(given.body === undefined ? {} : { body: JSON.stringify(given.body) }),
  })
  return { status: response.status, body: await response.json() } as Answer<Operation<Path, M>>
}

function fail(what: string, answer: { status: number; body: unknown }): never {
  throw new Error(what + ': ' + answer.status + ' ' + JSON.stringify(answer.body))
}

export async function runFlow(client: Client) {
  const key = () => crypto.randomUUID()
  const customer = await send(client, '/v1/customers', 'post', {
    header: { 'Idempotency-Key': key() },
    body: { name: 'Flow', email: 'flow@example.com', metadata: { plan: 'pro', seats: 3, tags: ['a', 'b'], nested: { on: true } } },
  })
  if (customer.status !== 201) return fail('customer', customer)
  const customerId: string = customer.body.data.id
  const seats: unknown = customer.body.data.metadata?.seats

  const meter = await send(client, '/v1/usage/meters', 'post', {
    header: { 'Idempotency-Key': key() },
    body: { name: 'Flow calls', aggregation: 'sum', unit: 'request', resetPeriod: 'never' },
  })
  if (meter.status !== 201) return fail('meter', meter)

  const product = await send(client, '/v1/products', 'post', {
    header: { 'Idempotency-Key': key() },
    body: { name: 'Flow plan', type: 'subscription', defaultPrice: { amount: '10', currency: 'USDC', model: 'subscription', interval: 'month' } },
  })
  if (product.status !== 201) return fail('product', product)
  const usagePrice = await send(client, '/v1/products/{productId}/prices', 'post', {
    path: { productId: product.body.data.id },
    body: { amount: '0.25', currency: 'USDC', model: 'metered', usageBillingMode: 'subscription', meterId: meter.body.data.id },
  })
  if (usagePrice.status !== 201) return fail('price', usagePrice)
  const unitAmount: string = usagePrice.body.data.amount

  const subscription = await send(client, '/v1/subscriptions', 'post', {
    header: { 'Idempotency-Key': key() },
    body: { customerId, productId: product.body.data.id },
  })
  if (subscription.status !== 201) return fail('subscription', subscription)

  const usage = await send(client, '/v1/usage/events', 'post', {
    body: { customerId, meterId: meter.body.data.id, quantity: 3, idempotencyKey: key(), metadata: { source: 'flow' } },
  })
  if (usage.status !== 200) return fail('usage', usage)
  const quantity: number = usage.body.data.quantity

  const query: Query<'/v1/invoices'> = { limit: 10 }
  const invoices = await send(client, '/v1/invoices', 'get', { query })
  if (invoices.status !== 200) return fail('invoices', invoices)
  const invoice = invoices.body.data.items.find((item) => item.subscriptionId === subscription.body.data.id)
  const nextCursor: string | null = invoices.body.data.nextCursor

  const missing = await send(client, '/v1/customers/{customerId}', 'get', { path: { customerId: 'cus_missing' } })
  let missingCode: 'customer_not_found' | undefined
  if (missing.status === 404) {
    missingCode = missing.body.error.code
    // @ts-expect-error an error's code is the union this status of this operation can carry, not any string
    const other: typeof missing.body.error.code = 'product_not_found'
    void other
  }

  return { customerId, seats, unitAmount, quantity, invoice, nextCursor, missingCode }
}

export function rulesTheTypesKnow(client: Client) {
  const invoicesQuery: Query<'/v1/invoices'> = {
    // @ts-expect-error limit is a number or left out, never null
    limit: null,
  }
  type CreateCustomer = Operation<'/v1/customers', 'post'>
  type CustomerBody = Json<NonNullable<CreateCustomer['requestBody']>>
  // @ts-expect-error metadata is a record, not any value
  const notRecord: CustomerBody = { metadata: 'plan=pro' }
  const openRecord: CustomerBody = { metadata: { anything: [1, { deep: null }] } }
  // @ts-expect-error creating a customer never answers 404
  const status: Answer<CreateCustomer>['status'] = 404
  // @ts-expect-error the Idempotency-Key header is required here
  void send(client, '/v1/customers', 'post', { body: { name: 'No key' } })
  // @ts-expect-error quantities are numbers
  void send(client, '/v1/usage/events', 'post', { body: { customerId: 'c', meterId: 'm', quantity: '3', idempotencyKey: 'k' } })
  // @ts-expect-error amounts are decimal strings
  void send(client, '/v1/products/{productId}/prices', 'post', { path: { productId: 'p' }, body: { amount: 0.25, currency: 'USDC', model: 'one_time' } })
  // @ts-expect-error the currency of credits is an enum
  const currency: Query<'/v1/customers/{customerId}/credits'>['currency'] = 'EUR'
  return [invoicesQuery, notRecord, openRecord, status, currency]
}
`

test('a client generated by openapi-typescript from /v1/openapi.json type-checks a whole flow, and the flow runs', async () => {
  const types = astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]))
  await writeFile(path.join(folder, 'api.d.ts'), types)
  const flowFile = path.join(folder, 'flow.ts')
  await writeFile(flowFile, flow)
  const program = ts.createProgram([flowFile], {
    strict: true,
    noUncheckedIndexedAccess: true,
    noUnusedLocals: false,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    noEmit: true,
  })
  const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined
    return `${diagnostic.file ? path.basename(diagnostic.file.fileName) : ''}:${where ? where.line + 1 : ''} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`
  })
  expect(problems).toEqual([])

  const javascript = ts.transpileModule(flow, { compilerOptions: { target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.ESNext } }).outputText
  const runnable = path.join(folder, 'flow.mjs')
  await writeFile(runnable, javascript)
  const { runFlow } = (await import(/* @vite-ignore */ pathToFileURL(runnable).href)) as { runFlow: (client: { baseUrl: string; key: string }) => Promise<Record<string, unknown>> }
  const result = await runFlow({ baseUrl: app.baseUrl, key: app.key })
  expect(result).toMatchObject({ seats: 3, unitAmount: '0.250000', quantity: 3, nextCursor: null, missingCode: 'customer_not_found' })
  expect(result.invoice).toMatchObject({ status: 'open', amountDue: '10.000000', currency: 'USDC', customerId: result.customerId })
}, 120_000)
