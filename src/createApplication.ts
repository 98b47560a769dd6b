import type { Server } from 'node:http'
import { buildOpenApiDocument } from '../rest/buildOpenApiDocument'
import { compileRoutes } from '../rest/compileRoutes'
import { createRestHandler } from '../rest/handleRestRequest'
import { createResourceRenderer } from '../rest/renderResource'
import { restRoutes } from '../rest/restRoutes'
import { defaultPaymentRails, type PaymentRails, type Services } from './Services'
import { ApiKeyCache } from './accounts/ApiKeyCache'
import { RateLimiter } from './accounts/RateLimiter'
import { AccessChecker } from './access/AccessChecker'
import { UsageEventRecorder } from './metering/UsageEventRecorder'
import { installResourceRenderer } from './events/resourceRenderer'
import { applyMigrations } from './database/applyMigrations'
import { createDatabaseClient } from './database/createDatabaseClient'
import { loadSigningSecret } from './database/loadSigningSecret'
import { createYogaServer, defaultGraphQLSettings, type GraphQLSettings } from './graphql/createYogaServer'
import { schema } from './graphql/schema'
import { countQueryErrors } from './metrics/databaseMetrics'
import { createHttpHandler } from './http/createHttpHandler'
import { KeylessRateLimiter } from './accounts/KeylessRateLimiter'
import { ResponseBytesInFlight } from './domain/ResponseBytesInFlight'
import { createHttpServer, type HttpServer, type RequestHandler } from './http/createHttpServer'
import { defaultHttpLimits, type HttpLimits } from './http/httpLimits'

export interface ApplicationOptions {
  databaseUrl: string
  publicUrl: string
  paymentRails?: PaymentRails
  maxConnections?: number
  onQuery?: (sql: string) => void
  /** Requests per API key per second; 0 for no limit. */
  rateLimitPerSecond?: number
  /** Requests without a valid key per client address per second (KeylessRateLimiter); 0 or unset for no limit. */
  keylessRateLimitPerSecond?: number
  graphql?: GraphQLSettings
  /** Serves GET /metrics to scrapers that send it as a bearer token; no /metrics when unset. */
  metricsToken?: string
  http?: HttpLimits
  /**
   * The server the caller made (already listening, answering probes while the database was awaited):
   * the caller hands it `handler` when it is ready to serve; `http` is then the caller's business.
   */
  httpServer?: HttpServer
}

export interface Application {
  services: Services
  server: Server
  /** Every request of `server` goes here (at once, unless the caller brought its own server). */
  handler: RequestHandler
  /** Closes the database pool; the caller stops the HTTP server first. */
  close(): Promise<void>
}

/** Everything but listening: migrate, connect, wire GraphQL, REST and HTTP together. */
export async function createApplication(options: ApplicationOptions): Promise<Application> {
  await applyMigrations(options.databaseUrl)
  const database = createDatabaseClient(options.databaseUrl, {
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.onQuery === undefined ? {} : { onQuery: options.onQuery }),
  })
  countQueryErrors(database.pool)
  const apiKeyCache = new ApiKeyCache(options.databaseUrl)
  await apiKeyCache.start()
  const services: Services = {
    database,
    apiKeyCache,
    usageEvents: new UsageEventRecorder(database.prisma),
    accessChecks: new AccessChecker(database.prisma),
    rateLimiter: new RateLimiter(database.pool, options.rateLimitPerSecond ?? 0),
    keylessRateLimiter: new KeylessRateLimiter(options.keylessRateLimitPerSecond ?? 0),
    responseBytesInFlight: new ResponseBytesInFlight((options.graphql ?? defaultGraphQLSettings).limits.maxResponseBytesInFlight),
    signingSecret: await loadSigningSecret(database.prisma),
    publicUrl: options.publicUrl,
    paymentRails: options.paymentRails ?? defaultPaymentRails,
  }
  const compiledRoutes = compileRoutes(schema, restRoutes)
  const graphqlSettings = options.graphql ?? defaultGraphQLSettings
  installResourceRenderer(createResourceRenderer(services, schema, compiledRoutes))
  const handler = createHttpHandler({
    services,
    yoga: createYogaServer(services, graphqlSettings),
    graphqlMaxBodyBytes: graphqlSettings.limits.maxBodyBytes,
    rest: createRestHandler(services, schema, compiledRoutes),
    openApiDocument: buildOpenApiDocument(compiledRoutes, options.publicUrl),
    metricsToken: options.metricsToken,
  })
  const httpServer = options.httpServer ?? createHttpServer(options.http ?? defaultHttpLimits, handler)
  return {
    services,
    server: httpServer.server,
    handler,
    close: async () => {
      await services.rateLimiter.close()
      await apiKeyCache.close()
      await database.close()
    },
  }
}
