import { randomBytes } from 'node:crypto'
import http from 'node:http'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { isErrorCode } from '../src/domain/DomainError'
import { maxDocumentNesting } from '../src/graphql/checkDocumentSize'
import { defaultQueryLimits } from '../src/graphql/queryLimits'
import { spawnServer, type ServerProcess } from './support/spawnServer'
import { createTestDatabase } from './support/testDatabase'

// Issue 8: hostile GraphQL against a real server process with the 256 MB heap of `npm start`, with
// and without a key: documents near and over the token, nesting, body and alias limits; nodes(ids:)
// with 1–150 ids mixing this account's, another account's and garbage ids (base64 junk, malformed
// UTF-8, lone surrogates); first/last at and past their bounds as literals and variables on nested
// connections; REST `limit` at and past its maximum; lone surrogates in variables and string literals.
// The promises: no 5xx, every error with a code of the closed set (in GraphQL's `errors` or the
// envelope), another account's ids never resolve, and the process is alive and ready at the end.

const requestCount = Number(process.env.FUZZ_GRAPHQL_REQUESTS ?? 1500)
const concurrency = 8
const limits = defaultQueryLimits

let server: ServerProcess
const key = `bk_test_${randomBytes(16).toString('hex')}`
const ownCustomers = Array.from({ length: 60 }, (_, index) => `cus_fuzzown${index}`)
const ownEvents = Array.from({ length: 60 }, (_, index) => `evt_fuzzown${index}`)
const foreignCustomers = Array.from({ length: 20 }, (_, index) => `cus_fuzzforeign${index}`)
const foreignEvents = Array.from({ length: 20 }, (_, index) => `evt_fuzzforeign${index}`)
const foreignIds = new Set([...foreignCustomers, ...foreignEvents])

beforeAll(async () => {
  const databaseUrl = await createTestDatabase()
  server = await spawnServer({
    DATABASE_URL: databaseUrl,
    BILLING_BOOTSTRAP_KEY: key,
    RATE_LIMIT_PER_SECOND: '0',
    // Requests without a key come far faster than the keyless limit allows: the documents are under test here.
    KEYLESS_RATE_LIMIT_PER_SECOND: '0',
    BILLING_INTERVAL_SECONDS: '0',
    LOG_LEVEL: 'silent',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=256`,
  })
  // This account's customers and usage events (with a little metadata), and another account's, by SQL.
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "Account" WHERE name = 'default'`)
    await client.query(`INSERT INTO "Account" (id, name, mode) VALUES ('acc_fuzzforeign', 'fuzz-foreign', 'test')`)
    for (const [accountId, customers, events, meter] of [
      [rows[0]!.id, ownCustomers, ownEvents, 'mtr_fuzzown'],
      ['acc_fuzzforeign', foreignCustomers, foreignEvents, 'mtr_fuzzforeign'],
    ] as const) {
      await client.query(`INSERT INTO "Meter" (id, "accountId", name, slug, aggregation, unit, "resetPeriod", "createdAt") VALUES ($1, $2, $1, $1, 'sum', 'request', 'never', now())`, [meter, accountId])
      await client.query(`INSERT INTO "Customer" (id, "accountId", name, "createdAt", "updatedAt") SELECT id, $1, 'fuzz ' || id, now(), now() FROM unnest($2::text[]) id`, [accountId, customers])
      await client.query(
        `INSERT INTO "UsageEvent" (id, "accountId", "customerId", "meterId", quantity, "idempotencyKey", fingerprint, metadata, "createdAt")
         SELECT event.id, $1, ($2::text[])[(1 + event.n % cardinality($2::text[]))::int], $3, 1, event.id, 'f', jsonb_build_object('note', repeat('x', 200)), now() - event.n * interval '1 second'
         FROM unnest($4::text[]) WITH ORDINALITY AS event(id, n)`,
        [accountId, customers, meter, events],
      )
    }
  } finally {
    await client.end()
  }
}, 120_000)
afterAll(async () => {
  await server?.stop('SIGKILL')
})

interface FuzzRequest {
  kind: string
  method: 'GET' | 'POST'
  path: string
  authorization: string | undefined
  body: string | Buffer | undefined
  /** The ids a nodes(ids:) request asked for, in order, to check that another account's never resolve. */
  nodeIds?: string[]
}

/** Text with unpaired UTF-16 surrogates, which JSON.stringify sends as `"\udfff"`. */
const loneSurrogates = fc.oneof(
  fc.constantFrom('\udfff', 'a\ud800b', '\udc00\ud800', '\ud83d', 'cus_\udfff'),
  fc.tuple(fc.string({ maxLength: 10 }), fc.integer({ min: 0xd800, max: 0xdfff })).map(([before, code]) => `${before}${String.fromCharCode(code)}`),
)
const garbageIds = fc.oneof(
  fc.base64String({ maxLength: 60 }),
  fc.base64String({ minLength: 4, maxLength: 40 }).map((junk) => `cus_${junk}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
  loneSurrogates,
  fc.constantFrom('', 'cus_', 'evt_', 'Q3VzdG9tZXI6Y3VzXzE=', 'x'.repeat(5000), '\u0000', 'cus_fuzzown1\u0000'),
)
const pageSizes = fc.constantFrom(0, 1, 100, 500, 501, 2 ** 31 - 1, -1, 2 ** 31)
const keys = fc.oneof({ weight: 3, arbitrary: fc.constant(`Bearer ${key}`) }, { weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('Bearer bk_test_madeupmadeupmadeupmadeup', 'Bearer ', 'Basic eA==') })

const graphql = (kind: string, query: string, variables?: Record<string, unknown>) =>
  keys.map((authorization): FuzzRequest => ({ kind, method: 'POST', path: '/graphql', authorization, body: JSON.stringify(variables === undefined ? { query } : { query, variables }) }))

/**
 * Documents of about `count` tokens: valid ones (operations of five tokens each, one of them named to
 * run) and ones refused after parsing (a long list argument).
 */
const tokenDocuments = fc.tuple(fc.oneof(fc.integer({ min: limits.maxTokens - 20, max: limits.maxTokens + 20 }), fc.constantFrom(limits.maxTokens, limits.maxTokens + 1)), fc.boolean()).chain(([count, valid]) =>
  valid
    ? keys.map((authorization): FuzzRequest => ({
        kind: 'tokens',
        method: 'POST',
        path: '/graphql',
        authorization,
        body: JSON.stringify({ query: Array.from({ length: Math.floor(count / 5) }, (_, index) => `query Q${index} { __typename }`).join(' '), operationName: 'Q0' }),
      }))
    : graphql('tokens', `query T { __typename(padding: [${'1 '.repeat(count - 11)}]) }`),
)

/** Brackets nested near and past the scan's limit, and real selections nested near and past the depth limit. */
const nestedDocuments = fc.oneof(
  fc.integer({ min: maxDocumentNesting - 8, max: maxDocumentNesting + 8 }).chain((depth) =>
    fc.constantFrom(`{ node(id: ${'['.repeat(depth - 2)}"x"${']'.repeat(depth - 2)}) { id } }`, `${'{ a '.repeat(depth)}${'}'.repeat(depth)}`).chain((query) => graphql('nesting', query)),
  ),
  fc.tuple(fc.integer({ min: 1, max: 4 }), pageSizes).chain(([repeats, size]) =>
    graphql('depth', `query($id: ID!) { node(id: $id) { ... on Customer { ${'subscriptions(first: 2) { edges { node { customer { '.repeat(repeats)}id usageEvents(first: ${size}) { totalCount }${' } } } }'.repeat(repeats)} } } }`, { id: ownCustomers[0] }),
  ),
)

/** Bodies within a few bytes of the limit, padded in the document or in the variables. */
const largeBodies = fc.tuple(fc.oneof(fc.integer({ min: limits.maxBodyBytes - 200, max: limits.maxBodyBytes + 200 }), fc.constantFrom(limits.maxBodyBytes, limits.maxBodyBytes + 1)), fc.boolean(), keys).map(([size, inDocument, authorization]): FuzzRequest => {
  const frame = inDocument ? JSON.stringify({ query: '{ __type(name: "") { name } }' }) : JSON.stringify({ query: 'query($p: String) { __typename }', variables: { p: '' } })
  const padding = 'x'.repeat(Math.max(0, size - Buffer.byteLength(frame)))
  const body = inDocument ? JSON.stringify({ query: `{ __type(name: "${padding}") { name } }` }) : JSON.stringify({ query: 'query($p: String) { __typename }', variables: { p: padding } })
  return { kind: 'body size', method: 'POST', path: '/graphql', authorization, body }
})

/** Aliases near and past the limit, on a field and on a connection. */
const aliasedDocuments = fc.tuple(fc.integer({ min: limits.maxAliases - 5, max: limits.maxAliases + 10 }), fc.boolean()).chain(([count, onConnection]) =>
  graphql('aliases', `{ ${Array.from({ length: count }, (_, index) => (onConnection ? `a${index}: customers(first: 50) { edges { node { id name } } }` : `a${index}: __typename`)).join(' ')} }`),
)

/** nodes(ids:) with 1–150 ids of this account, another account and garbage, as variables or inline literals. */
const nodesRequests = fc
  .tuple(
    fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ownCustomers, ...ownEvents) }, { weight: 2, arbitrary: fc.constantFrom(...foreignIds) }, { weight: 2, arbitrary: garbageIds }), { minLength: 1, maxLength: 150 }),
    pageSizes,
    fc.boolean(),
    keys,
  )
  .map(([ids, size, inline, authorization]): FuzzRequest => {
    const selection = `{ id __typename ... on Customer { name usageEvents(last: ${inline ? size : '$size'}) { edges { node { id metadata } } } } ... on UsageEvent { quantity metadata } }`
    const query = inline ? `{ nodes(ids: ${JSON.stringify(ids)}) ${selection} }` : `query($ids: [ID!]!, $size: Int) { nodes(ids: $ids) ${selection} }`
    return { kind: 'nodes', method: 'POST', path: '/graphql', authorization, body: JSON.stringify(inline ? { query } : { query, variables: { ids, size } }), nodeIds: ids }
  })

/** first/last from the edge values, as literals or variables, on nested connections. */
const pagedRequests = fc.tuple(pageSizes, pageSizes, pageSizes, fc.constantFrom('first', 'last'), fc.constantFrom('first', 'last'), fc.boolean()).chain(([outer, inner, third, outerSide, innerSide, asVariables]) => {
  const value = (name: string, size: number) => (asVariables ? `$${name}` : String(size))
  const query =
    `${asVariables ? 'query($a: Int, $b: Int, $c: Int) ' : ''}{ customers(${outerSide}: ${value('a', outer)}) { totalCount edges { node { id ` +
    `usageEvents(${innerSide}: ${value('b', inner)}) { totalCount edges { node { id quantity } } } ` +
    `invoices(last: ${value('c', third)}) { edges { node { id } } } subscriptions(first: ${value('c', third)}) { edges { node { id } } } } } } }`
  return graphql('pages', query, asVariables ? { a: outer, b: inner, c: third } : undefined)
})

/** Lone surrogates (and malformed UTF-8 bytes) in variables, in string literals and as GraphQL escapes. */
const surrogateRequests = fc.oneof(
  loneSurrogates.chain((text) => graphql('surrogate variable', 'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }', { input: { name: text } })),
  loneSurrogates.chain((text) => graphql('surrogate variable', 'query($id: ID!) { customer(id: $id) { id } }', { id: text })),
  // Raw in the document's text (the JSON body carries it as `\udfff`).
  loneSurrogates.chain((text) => graphql('surrogate literal', `{ customers(first: 5, namePrefix: "${text.replace(/["\\]/g, '')}") { edges { node { id } } } }`)),
  fc.integer({ min: 0xd800, max: 0xdfff }).chain((code) => graphql('surrogate escape', `{ customers(first: 5, namePrefix: "a\\u${code.toString(16)}") { edges { node { id } } } }`)),
  keys.map((authorization): FuzzRequest => ({
    kind: 'malformed UTF-8',
    method: 'POST',
    path: '/graphql',
    authorization,
    // A surrogate encoded as UTF-8 bytes (ED A0 80), and a byte that starts nothing (FF): not UTF-8 at all.
    body: Buffer.concat([Buffer.from('{"query":"query($n: String) { customers(first: 5, namePrefix: $n) { edges { node { id } } } }","variables":{"n":"'), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from('"}}')]),
  })),
)

/** REST lists with `limit` at, around and past its maximum. */
const restLimits = fc
  .tuple(fc.constantFrom('/v1/customers', '/v1/usage/events', '/v1/events', '/v1/invoices', '/v1/subscriptions'), fc.oneof(pageSizes.map(String), fc.constantFrom('1e3', '100.5', '', 'x', '0x10', '\udfff')), keys)
  .map(([path, limit, authorization]): FuzzRequest => ({ kind: 'REST limit', method: 'GET', path: `${path}?limit=${encodeURIComponent(limit.replace(/[\ud800-\udfff]/g, '\ufffd'))}`, authorization, body: undefined }))

const requests = fc.oneof(tokenDocuments, nestedDocuments, largeBodies, aliasedDocuments, nodesRequests, pagedRequests, surrogateRequests, restLimits)

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })

/** node:http rather than fetch: it sends the bytes it is given, and says exactly how a connection failed. */
function send(request: FuzzRequest): Promise<{ status: number; retryAfter: string | undefined; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (request.authorization !== undefined) headers.authorization = request.authorization
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body))
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${server.baseUrl}${request.path}`, { method: request.method, headers, agent }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], text: Buffer.concat(chunks).toString('utf8') }))
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(request.body)
  })
}

interface Answer {
  data?: unknown
  errors?: unknown
  success?: unknown
  error?: { code?: unknown; message?: unknown } | null
}

/** What is wrong with an answer, or undefined: GraphQL's `{data, errors}` with coded errors, or the envelope. */
function checkAnswer(request: FuzzRequest, status: number, answer: Answer): string | undefined {
  if (status >= 500) return 'a 5xx'
  if ('success' in answer) {
    if (answer.success === true) return status < 400 && 'data' in answer && answer.error === null ? undefined : 'a success envelope with an error status'
    return status >= 400 && answer.data === null && isErrorCode(answer.error?.code) && typeof answer.error?.message === 'string' ? undefined : 'an error envelope without a code of the closed set'
  }
  if (request.path !== '/graphql') return 'a REST answer outside the envelope'
  if (answer.errors !== undefined) {
    if (!Array.isArray(answer.errors) || answer.errors.length === 0) return 'errors that are not a list'
    for (const error of answer.errors as { message?: unknown; extensions?: { code?: unknown } }[]) {
      if (typeof error.message !== 'string' || !isErrorCode(error.extensions?.code)) return `an error without a code of the closed set: ${JSON.stringify(error).slice(0, 200)}`
    }
    return undefined
  }
  if (status !== 200 || typeof answer.data !== 'object' || answer.data === null) return 'neither data nor errors'
  return undefined
}

/** Another account's ids resolve to null, whoever asks; this account's resolve to themselves for its key. */
function checkNodes(request: FuzzRequest, answer: Answer): string | undefined {
  const nodes = (answer.data as { nodes?: ({ id?: string } | null)[] } | null | undefined)?.nodes
  if (!nodes || !request.nodeIds) return undefined
  for (const [index, id] of request.nodeIds.entries()) {
    if (foreignIds.has(id) && nodes[index] !== null) return `another account's ${id} resolved: ${JSON.stringify(nodes[index]).slice(0, 200)}`
    if (request.authorization === `Bearer ${key}` && (ownCustomers.includes(id) || ownEvents.includes(id)) && nodes[index] !== null && nodes[index]?.id !== id) return `${id} resolved as ${nodes[index]?.id}`
  }
  return undefined
}

test(`${requestCount} hostile GraphQL requests to a 256 MB server: no 5xx, every error coded, no other account's data, the process still ready`, async () => {
  // A fixed seed keeps CI reproducible; FUZZ_SEED explores others.
  const corpus = fc.sample(requests, { numRuns: requestCount, seed: Number(process.env.FUZZ_SEED ?? 20261124) })
  const failures: string[] = []
  const outcomes = new Map<string, number>()
  let next = 0
  const worker = async () => {
    while (next < corpus.length && failures.length < 20) {
      const request = corpus[next++]!
      const where = `${request.kind} (${request.authorization === undefined ? 'no key' : request.authorization.slice(0, 20)}): ${request.method} ${request.path.slice(0, 60)} ${request.body?.toString().slice(0, 160) ?? ''}`
      let response: Awaited<ReturnType<typeof send>>
      try {
        response = await send(request)
      } catch (error) {
        failures.push(`${where}: no answer (${String(error)})`)
        continue
      }
      let answer: Answer
      try {
        answer = JSON.parse(response.text) as Answer
      } catch {
        failures.push(`${where} → ${response.status}: not JSON: ${response.text.slice(0, 200)}`)
        continue
      }
      const problem = checkAnswer(request, response.status, answer) ?? checkNodes(request, answer)
      if (problem) failures.push(`${where} → ${response.status}: ${problem}: ${response.text.slice(0, 300)}`)
      const code = (answer.errors as { extensions?: { code?: string } }[] | undefined)?.[0]?.extensions?.code ?? answer.error?.code
      const outcome = `${request.kind} ${response.status}${typeof code === 'string' ? ` ${code}` : ''}`
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  expect(failures).toEqual([])

  // The corpus reached past the front door: successes and each kind of refusal, for each kind of request.
  const seen = (pattern: RegExp) => [...outcomes.keys()].some((outcome) => pattern.test(outcome))
  for (const pattern of [/^tokens 200$/, /^tokens 400 validation_error$/, /^nesting 400 validation_error$/, /^depth 200$/, /^depth \d+ validation_error$/, /^body size 200/, /^body size 413 payload_too_large$/, /^aliases 200$/, /^aliases \d+ validation_error$/, /^nodes 200$/, /^nodes \d+ validation_error$/, /^nodes \d+ unauthorized$/, /^pages 200$/, /^pages \d+ validation_error$/, /^surrogate variable 400 validation_error$/, /^surrogate literal 400 validation_error$/, /^surrogate escape \d+ validation_error$/, /^REST limit 200$/, /^REST limit 400 validation_error$/, /^REST limit 401 unauthorized$/]) {
    expect(seen(pattern), `${pattern} among ${[...outcomes.keys()].sort().join(', ')}`).toBe(true)
  }

  expect(server.child.exitCode).toBeNull()
  expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200)
  expect(server.output()).not.toMatch(/heap limit|Maximum call stack|out of memory/i)
}, 300_000)
