import { defaultHttpLimits, type HttpLimits } from './http/httpLimits'
import type { GraphQLSettings } from './graphql/createYogaServer'
import { defaultQueryLimits } from './graphql/queryLimits'
import { defaultPaymentRails, type PaymentRails } from './Services'
import { defaultWebhookDeliverySettings } from './webhooks/webhookDeliverySettings'

/** The server's environment (CONTRACT §8), read once at start. */
export interface Configuration {
  port: number
  host: string
  /** PostgreSQL; when unset, the embedded database in `dataDirectory`. */
  databaseUrl: string | undefined
  dataDirectory: string
  publicUrl: string
  bootstrapKey: string | undefined
  paymentRails: PaymentRails
  /** How often the billing runner looks for due work; 0 turns it off in this process. */
  billingIntervalSeconds: number
  /** Requests per API key per second, across processes; 0 for no limit. */
  rateLimitPerSecond: number
  /** Requests without a valid key per client address per second, in each process; 0 for no limit. */
  keylessRateLimitPerSecond: number
  /** How often background PIX work runs (reconciliation is further paced per account); 0 turns it off in this process. */
  pixIntervalSeconds: number
  graphql: GraphQLSettings
  http: HttpLimits
  /** GET /metrics is served (to this bearer token) only when set. */
  metricsToken: string | undefined
  /** Webhook deliveries in flight in this process; 0 turns delivery off in this process. */
  webhookConcurrency: number
  /** A receiver's 2xx must arrive within this. */
  webhookTimeoutSeconds: number
  /** The waits before each retry; the default is CONTRACT §10's (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  webhookRetryScheduleSeconds: number[]
}

export function readConfiguration(environment: NodeJS.ProcessEnv = process.env): Configuration {
  const port = Number(environment.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not ${environment.PORT}`)
  const host = environment.HOST ?? '127.0.0.1'
  const http = readHttpLimits(environment)
  return {
    port,
    host,
    databaseUrl: environment.DATABASE_URL || undefined,
    dataDirectory: environment.DATA_DIR ?? './data',
    publicUrl: (environment.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    bootstrapKey: environment.BILLING_BOOTSTRAP_KEY || undefined,
    metricsToken: environment.METRICS_TOKEN || undefined,
    billingIntervalSeconds: wholeNumber(environment, 'BILLING_INTERVAL_SECONDS', 10),
    rateLimitPerSecond: wholeNumber(environment, 'RATE_LIMIT_PER_SECOND', 1000),
    keylessRateLimitPerSecond: wholeNumber(environment, 'KEYLESS_RATE_LIMIT_PER_SECOND', 20),
    pixIntervalSeconds: wholeNumber(environment, 'PIX_INTERVAL_SECONDS', 5),
    webhookConcurrency: wholeNumber(environment, 'WEBHOOK_CONCURRENCY', defaultWebhookDeliverySettings.concurrency),
    webhookTimeoutSeconds: wholeNumber(environment, 'WEBHOOK_TIMEOUT_SECONDS', defaultWebhookDeliverySettings.timeoutMs / 1000),
    webhookRetryScheduleSeconds: wholeNumbers(environment, 'WEBHOOK_RETRY_SCHEDULE_SECONDS', defaultWebhookDeliverySettings.retryScheduleMs.map((milliseconds) => milliseconds / 1000)),
    graphql: {
      introspection: environment.GRAPHQL_INTROSPECTION !== 'false',
      graphiql: environment.GRAPHIQL !== 'false',
      limits: {
        maxDepth: wholeNumber(environment, 'GRAPHQL_MAX_DEPTH', defaultQueryLimits.maxDepth),
        maxAliases: wholeNumber(environment, 'GRAPHQL_MAX_ALIASES', defaultQueryLimits.maxAliases),
        maxCost: wholeNumber(environment, 'GRAPHQL_MAX_COST', defaultQueryLimits.maxCost),
        maxBodyBytes: wholeNumber(environment, 'GRAPHQL_MAX_BODY_BYTES', defaultQueryLimits.maxBodyBytes),
        maxTokens: wholeNumber(environment, 'GRAPHQL_MAX_TOKENS', defaultQueryLimits.maxTokens),
        maxResponseBytes: wholeNumber(environment, 'GRAPHQL_MAX_RESPONSE_BYTES', defaultQueryLimits.maxResponseBytes),
        maxResponseBytesInFlight: wholeNumber(environment, 'GRAPHQL_MAX_RESPONSE_BYTES_IN_FLIGHT', defaultQueryLimits.maxResponseBytesInFlight),
      },
    },
    http,
    paymentRails: {
      pixKey: environment.PIX_KEY || defaultPaymentRails.pixKey,
      pixMerchantName: environment.PIX_MERCHANT_NAME || defaultPaymentRails.pixMerchantName,
      pixMerchantCity: environment.PIX_MERCHANT_CITY || defaultPaymentRails.pixMerchantCity,
      usdcAddress: environment.USDC_PAYMENT_ADDRESS || defaultPaymentRails.usdcAddress,
      usdcNetwork: environment.USDC_NETWORK || defaultPaymentRails.usdcNetwork,
    },
  }
}

/**
 * Node refuses to create a server whose headers timeout exceeds its request timeout (0 turns either
 * off); the same rule is checked here, so that the process stops with one line naming the variables.
 */
function readHttpLimits(environment: NodeJS.ProcessEnv): HttpLimits {
  const requestSeconds = wholeNumber(environment, 'HTTP_REQUEST_TIMEOUT_SECONDS', defaultHttpLimits.requestTimeoutMs / 1000)
  const headersSeconds = wholeNumber(environment, 'HTTP_HEADERS_TIMEOUT_SECONDS', defaultHttpLimits.headersTimeoutMs / 1000)
  if (requestSeconds > 0 && headersSeconds > requestSeconds) {
    throw new Error(
      `HTTP_HEADERS_TIMEOUT_SECONDS (${headersSeconds}) must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${requestSeconds}): the headers are part of the request`,
    )
  }
  return {
    requestTimeoutMs: requestSeconds * 1000,
    headersTimeoutMs: headersSeconds * 1000,
    maxConnections: wholeNumber(environment, 'HTTP_MAX_CONNECTIONS', defaultHttpLimits.maxConnections),
  }
}

function wholeNumber(environment: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = environment[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${text}`)
  return value
}

function wholeNumbers(environment: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const text = environment[name]
  if (text === undefined || text === '') return fallback
  const values = text.split(',').map((part) => Number(part.trim()))
  if (values.some((value) => !Number.isInteger(value) || value < 0)) throw new Error(`${name} must be whole numbers separated by commas, not ${text}`)
  return values
}
