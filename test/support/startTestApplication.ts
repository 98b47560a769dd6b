import type { AddressInfo } from 'node:net'
import { createApiKey } from '../../src/accounts/createApiKey'
import type { Scope } from '../../src/accounts/scopes'
import { createApplication, type Application } from '../../src/createApplication'
import { systemClock } from '../../src/domain/DomainContext'
import type { GraphQLSettings } from '../../src/graphql/createYogaServer'
import type { HttpLimits } from '../../src/http/httpLimits'
import { createTestDatabase } from './testDatabase'

export interface TestResponse {
  status: number
  headers: Headers
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read response JSON freely
}

export interface RequestOptions {
  key?: string | null
  body?: unknown
  /** A raw body, sent as is (for malformed JSON and content-type tests). */
  rawBody?: string
  headers?: Record<string, string>
  idempotencyKey?: string
}

export interface TestApplication {
  application: Application
  baseUrl: string
  databaseUrl: string
  /** A key with all four scopes on account `main`. */
  key: string
  createKey(options?: { account?: string; scopes?: Scope[]; mode?: 'test' | 'live' }): Promise<string>
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>
  graphql(query: string, variables?: Record<string, unknown>, key?: string | null): Promise<TestResponse>
  close(): Promise<void>
}

/** The real application (migrations, Prisma, GraphQL, REST, HTTP) on its own database and port. */
export interface TestApplicationOptions {
  databaseUrl?: string
  onQuery?: (sql: string) => void
  rateLimitPerSecond?: number
  keylessRateLimitPerSecond?: number
  graphql?: GraphQLSettings
  http?: HttpLimits
  metricsToken?: string
  /** Hand out URLs on the test server itself (so a PSP simulator's callbacks reach it). */
  publicUrlIsBaseUrl?: boolean
}

export async function startTestApplication(options: TestApplicationOptions = {}): Promise<TestApplication> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase())
  const application = await createApplication({
    databaseUrl,
    publicUrl: 'http://billing.test',
    maxConnections: 10,
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
    ...(options.rateLimitPerSecond ? { rateLimitPerSecond: options.rateLimitPerSecond } : {}),
    ...(options.keylessRateLimitPerSecond ? { keylessRateLimitPerSecond: options.keylessRateLimitPerSecond } : {}),
    ...(options.graphql ? { graphql: options.graphql } : {}),
    ...(options.http ? { http: options.http } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
  })
  await new Promise<void>((resolve) => application.server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(application.server.address() as AddressInfo).port}`
  if (options.publicUrlIsBaseUrl) application.services.publicUrl = baseUrl
  const createKey: TestApplication['createKey'] = async (keyOptions = {}) => {
    const created = await createApiKey(application.services.database.prisma, systemClock, {
      accountName: keyOptions.account ?? 'main',
      mode: keyOptions.mode ?? 'test',
      ...(keyOptions.scopes ? { scopes: keyOptions.scopes } : {}),
    })
    return created.key
  }
  const key = await createKey()
  const request: TestApplication['request'] = async (method, path, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers }
    const usedKey = requestOptions.key === undefined ? key : requestOptions.key
    if (usedKey !== null) headers.Authorization = `Bearer ${usedKey}`
    if (requestOptions.idempotencyKey !== undefined) headers['Idempotency-Key'] = requestOptions.idempotencyKey
    let body: string | undefined = requestOptions.rawBody
    if (requestOptions.body !== undefined) {
      body = JSON.stringify(requestOptions.body)
      headers['Content-Type'] ??= 'application/json'
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON: left as text for the assertion to show
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }
  return {
    application,
    baseUrl,
    databaseUrl,
    key,
    createKey,
    request,
    graphql: (query, variables = {}, graphqlKey) =>
      request('POST', '/graphql', { body: { query, variables }, key: graphqlKey === undefined ? key : graphqlKey }),
    async close() {
      application.server.closeAllConnections()
      await new Promise<void>((resolve) => application.server.close(() => resolve()))
      await application.close()
    },
  }
}
