import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildOpenApiDocument } from '../rest/buildOpenApiDocument'
import { compileRoutes } from '../rest/compileRoutes'
import { restRoutes } from '../rest/restRoutes'
import { schema } from '../src/graphql/schema'
import { fillPath, seedCatalog, type SeededCatalog } from './support/seedCatalog'
import { startTestApplication, type TestApplication } from './support/startTestApplication'

// Hostile input against every route of the OpenAPI document: wrong types, huge and deep values,
// unicode (lone surrogates too), extreme numbers, duplicated keys, broken JSON, wrong content types, garbage ids and
// cursors, bad keys. The promises: no 5xx, every answer in the documented envelope, every refusal's
// code one the OpenAPI document lists for that status of that operation, and every success shaped
// exactly as the document says.

const requestCount = Number(process.env.FUZZ_REQUESTS ?? 20_000)
const concurrency = 16

let app: TestApplication
let ids: SeededCatalog
beforeAll(async () => {
  app = await startTestApplication()
  ids = await seedCatalog(app)
}, 60_000)
afterAll(async () => {
  await app.close()
})

interface OpenApiOperation {
  parameters: { name: string; in: string }[]
  requestBody?: { content: { 'application/json': { schema: Record<string, unknown> } } }
  /** Successes inline; refusals as references to `components.responses`. */
  responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: Record<string, unknown> } } }>
}

interface SharedErrorResponse {
  content: { 'application/json': { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } } }
}

interface FuzzRequest {
  method: string
  path: string
  query: [string, string][]
  headers: Record<string, string>
  body: string | undefined
}

/** Text with unpaired UTF-16 surrogates (JSON `"\udfff"`), which PostgreSQL cannot store. */
const loneSurrogates = fc.oneof(
  fc.constantFrom('\udfff', 'a\ud800b', '\udc00\ud800', '\ud83d', `cus_\udfff`),
  fc.tuple(fc.string({ maxLength: 20 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 20 })).map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`),
)

/** encodeURIComponent, except that a lone surrogate goes out as its three generalised UTF-8 bytes (%ED%BF%BF) as an attacker would send it. */
const encodePathText = (text: string) =>
  [...text].map((character) => {
    const code = character.charCodeAt(0)
    if (character.length === 1 && code >= 0xd800 && code <= 0xdfff) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')
    return encodeURIComponent(character)
  }).join('')

const weirdStrings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom('', ' ', '\u0000', '💸💸', 'null', 'NaN', '-1', '1e309', '0x10', '29.900', '1.234', '../../etc/passwd', "' OR 1=1 --", '<script>alert(1)</script>', 'cus_', 'bk_test_x'),
  fc.string({ minLength: 2000, maxLength: 5000 }),
  loneSurrogates,
)
const weirdNumbers = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2, 1e-20))
const deepValue = fc.integer({ min: 50, max: 3000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown)
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(weirdStrings, weirdNumbers, fc.boolean(), fc.constant(null), deepValue, fc.jsonValue({ maxDepth: 4 }), fc.array(weirdNumbers, { maxLength: 5 }))

const oversizedBody = JSON.stringify({ big: 'x'.repeat(1_100_000) })

/** Header values are bytes: what a client can send at all (no code point above 255, no line breaks). */
const headerText = (text: string) =>
  [...text].filter((character) => { const code = character.charCodeAt(0); return (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) }).join('')

/** A body for a route: often close to valid (its own fields, some values mangled), sometimes anything at all. */
function bodyFor(operation: OpenApiOperation): fc.Arbitrary<string | undefined> {
  const bodySchema = operation.requestBody?.content['application/json'].schema as { properties?: Record<string, unknown> } | undefined
  const fields = Object.keys(bodySchema?.properties ?? {})
  const plausible = fc.dictionary(fc.oneof(fc.constantFrom(...(fields.length ? fields : ['x'])), fc.string({ maxLength: 12 }), loneSurrogates), weirdValue, { maxKeys: 8 }).map((value) => JSON.stringify(value))
  return fc.oneof(
    { weight: 6, arbitrary: plausible },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[]', 'null', '"text"', '{"a":1,"a":2}', '{"customerId":"x","customerId":{"$gt":""}}', '\u0000{}') },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(oversizedBody) },
  )
}

function requestsFor(document: { paths: Record<string, Record<string, OpenApiOperation>> }): fc.Arbitrary<FuzzRequest> {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))
  const pathValue = fc.oneof({ weight: 5, arbitrary: fc.constant('seeded') }, { weight: 1, arbitrary: weirdStrings.map((text) => encodePathText(text.slice(0, 200))) })
  return fc.constantFrom(...operations).chain(({ path, method, operation }) =>
    fc.record({
      method: fc.oneof({ weight: 19, arbitrary: fc.constant(method.toUpperCase()) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT') }),
      path: pathValue.map((value) => (value === 'seeded' ? fillPath(path, ids) : path.replace(/\{\w+\}/g, value || 'x'))),
      query: fc.array(
        fc.tuple(fc.oneof(fc.constantFrom(...operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name), 'limit'), fc.string({ maxLength: 8 })), weirdStrings.map((text) => text.slice(0, 300))),
        { maxLength: 3 },
      ),
      headers: fc.record({
        authorization: fc.oneof({ weight: 8, arbitrary: fc.constant(`Bearer ${app.key}`) }, { weight: 1, arbitrary: weirdStrings.map((text) => headerText(`Bearer ${text.slice(0, 100)}`)) }),
        'content-type': fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', '') }),
        'idempotency-key': fc.oneof(fc.constant(randomUUID()).map(() => randomUUID()), fc.constantFrom('', 'x'.repeat(300), 'same-key')),
      }),
      body: method === 'get' ? fc.constant(undefined) : bodyFor(operation),
    }).map((request) => (request.method === 'GET' ? { ...request, body: undefined } : request)),
  )
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })

/** node:http rather than fetch: it sends what it is given, and says exactly how a connection failed. */
function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) }, agent }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: async () => Buffer.concat(chunks).toString('utf8') }))
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end(body)
  })
}

test(`${requestCount} hostile requests: no 5xx, every answer in the envelope, every refusal and success as documented`, async () => {
  const document = buildOpenApiDocument(compileRoutes(schema, restRoutes), app.baseUrl) as unknown as {
    paths: Record<string, Record<string, OpenApiOperation>>
    components: { schemas: Record<string, unknown>; responses: Record<string, SharedErrorResponse> }
  }
  const ajv = new Ajv2020({ strict: false, allErrors: false })
  addFormats.default(ajv)
  const errorEnvelope = ajv.compile(document.components.schemas.ErrorEnvelope as object)
  const successValidators = new Map<string, ReturnType<typeof ajv.compile>>()
  const documentedCodes = new Map<string, string[]>()
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const key = `${method.toUpperCase()} ${path} ${status}`
        if (response.$ref) documentedCodes.set(key, document.components.responses[response.$ref.replace('#/components/responses/', '')]!.content['application/json'].schema.properties.error.properties.code.enum)
        else successValidators.set(key, ajv.compile(response.content!['application/json'].schema))
      }
    }
  }
  const routeOf = (method: string, path: string) =>
    Object.keys(document.paths).find((template) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path) && document.paths[template]![method.toLowerCase()])

  // A fixed seed by default keeps CI reproducible; FUZZ_SEED explores others (every seed tried so far passes).
  const requests = fc.sample(requestsFor(document), { numRuns: requestCount, seed: Number(process.env.FUZZ_SEED ?? 20261122) })
  const failures: string[] = []
  let next = 0
  let answered = 0
  const statuses = new Map<number, number>()
  const worker = async () => {
    while (next < requests.length && failures.length < 20) {
      const request = requests[next++]!
      const url = new URL(`${app.baseUrl}${request.path}`)
      for (const [name, value] of request.query) url.searchParams.append(name, value)
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([, value]) => value !== ''))
      let response: { status: number; text: () => Promise<string> }
      try {
        response = await send(url, request.method, headers, request.body)
      } catch (error) {
        failures.push(`${request.method} ${url.pathname}${url.search}: no answer (${String((error as { cause?: unknown }).cause ?? error)}) with headers ${JSON.stringify(headers).slice(0, 300)} and a body of ${request.body?.length ?? 0} characters`)
        continue
      }
      const text = await response.text()
      answered += 1
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      const where = `${request.method} ${url.pathname}${url.search.slice(0, 80)} → ${response.status}`
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        failures.push(`${where}: not JSON`)
        continue
      }
      if (response.status >= 500) failures.push(`${where}: ${text.slice(0, 200)} (sent ${request.body?.slice(0, 300)})`)
      else if (response.status >= 400) {
        const template = routeOf(request.method, url.pathname)
        const code = (body as { error?: { code?: string } }).error?.code ?? ''
        if (!errorEnvelope(body)) failures.push(`${where}: error not in the envelope: ${text.slice(0, 200)}`)
        // 405 belongs to no operation: the path has others, not this method.
        else if (template && response.status !== 405 && !documentedCodes.get(`${request.method} ${template} ${response.status}`)?.includes(code)) {
          failures.push(`${where}: ${code}, which the document does not list for this status of ${request.method} ${template}`)
        }
      } else {
        const template = routeOf(request.method, url.pathname)
        const validate = template ? successValidators.get(`${request.method} ${template} ${response.status}`) : undefined
        if (!validate) failures.push(`${where}: a success no route documents`)
        else if (!validate(body)) failures.push(`${where}: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 200)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  expect(failures).toEqual([])
  expect(answered).toBe(requestCount)
  // The corpus reached the endpoints, not only the front door: successes and each kind of refusal.
  for (const status of [200, 400, 401, 404]) expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0)
}, 600_000)
