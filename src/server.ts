import { createFirstKeyIfNone, ensureBootstrapKey } from './accounts/ensureBootstrapKey'
import { startBillingRunner } from './billing/startBillingRunner'
import { createApplication, type Application } from './createApplication'
import { migrateWhenReachable } from './start/migrateWhenReachable'
import { openConfiguredDatabase } from './start/openConfiguredDatabase'
import type { EmbeddedDatabase } from './database/startEmbeddedDatabase'
import { systemClock } from './domain/DomainContext'
import { answerWhileStarting } from './http/answerWhileStarting'
import { createHttpServer } from './http/createHttpServer'
import { logError, logInfo } from './logging/log'
import { removeExpiredIdempotencyRecords } from './idempotency/removeExpiredIdempotencyRecords'
import { removeStalePixWorkAttempts } from './payments/pix/removeStalePixWorkAttempts'
import { startPixWorker } from './payments/pix/startPixWorker'
import { startUsdcWatchers } from './payments/usdc/startUsdcWatchers'
import { readConfiguration, type Configuration } from './readConfiguration'
import { removeOldRateLimitWindows } from './accounts/RateLimiter'
import { startWebhookWorker } from './webhooks/startWebhookWorker'

// `npm start`: the listening process. Everything it serves is built by createApplication.

const configuration = readConfigurationOrExit()

// Listening comes first: while the database is awaited, /healthz answers 200 and /readyz (and every
// other request) 503, so that an orchestrator sees a live process that is not ready yet. Nothing is
// logged until the start succeeds or fails: a start that cannot work prints one line, its reason.
const httpServer = createHttpServer(configuration.http, answerWhileStarting)
httpServer.server.once('error', (error: NodeJS.ErrnoException) => {
  process.stderr.write(`Cannot listen on ${configuration.host}:${configuration.port}: ${error.code ?? error.message}\n`)
  process.exit(1)
})
httpServer.server.listen(configuration.port, configuration.host)
// Filled in as the start goes on: a signal may arrive at any point of it.
const running: {
  application?: Application
  embedded?: EmbeddedDatabase | undefined
  cleanup?: NodeJS.Timeout
  usdcWatchers?: ReturnType<typeof startUsdcWatchers>
  billingRunner?: ReturnType<typeof startBillingRunner> | undefined
  pixWorker?: ReturnType<typeof startPixWorker> | undefined
  webhookWorker?: ReturnType<typeof startWebhookWorker> | undefined
} = {}
let stopping = false
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

const database = await openConfiguredDatabase(configuration)
const { embedded } = database
running.embedded = embedded
if (embedded) logInfo('embedded PostgreSQL started', { dataDirectory: configuration.dataDirectory, created: embedded.created })
await migrateWhenReachable(database.url)
const application = await createApplication({
  databaseUrl: database.url,
  publicUrl: configuration.publicUrl,
  paymentRails: configuration.paymentRails,
  rateLimitPerSecond: configuration.rateLimitPerSecond,
  keylessRateLimitPerSecond: configuration.keylessRateLimitPerSecond,
  graphql: configuration.graphql,
  httpServer,
  ...(configuration.metricsToken ? { metricsToken: configuration.metricsToken } : {}),
})
running.application = application
const { prisma } = application.services.database
if (configuration.bootstrapKey) await ensureBootstrapKey({ db: prisma, clock: systemClock }, configuration.bootstrapKey)
if (embedded?.created) {
  const firstKey = await createFirstKeyIfNone(prisma, systemClock)
  if (firstKey) {
    // Printed once, on the run that created the database: the key is stored only as a hash.
    process.stdout.write(`\nA test API key for the account "default" (shown once, keep it):\n\n  ${firstKey.key}\n\n`)
  }
}

const { pool } = application.services.database
running.cleanup = setInterval(() => {
  removeExpiredIdempotencyRecords(prisma, systemClock).catch((error: unknown) => logError(error))
  removeStalePixWorkAttempts(prisma, systemClock).catch((error: unknown) => logError(error))
  removeOldRateLimitWindows(pool).catch((error: unknown) => logError(error))
}, 60 * 1000)
running.cleanup.unref()

// Chain watchers: one loop per configured chain and token (USDC providers, CONTRACT §9.2).
running.usdcWatchers = startUsdcWatchers(prisma)

running.billingRunner = configuration.billingIntervalSeconds > 0 ? startBillingRunner(prisma, configuration.billingIntervalSeconds * 1000) : undefined
running.pixWorker = configuration.pixIntervalSeconds > 0 ? startPixWorker(prisma, configuration.pixIntervalSeconds * 1000) : undefined
running.webhookWorker =
  configuration.webhookConcurrency > 0
    ? startWebhookWorker(
        { pool, databaseUrl: database.url },
        {
          concurrency: configuration.webhookConcurrency,
          timeoutMs: configuration.webhookTimeoutSeconds * 1000,
          retryScheduleMs: configuration.webhookRetryScheduleSeconds.map((seconds) => seconds * 1000),
        },
      )
    : undefined

// Ready: from now on every request is served (and /readyz asks the database itself).
httpServer.serve(application.handler)
logInfo('ready', { url: `http://${configuration.host}:${configuration.port}`, graphql: '/graphql', rest: '/v1' })

async function shutdown(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  logInfo('shutting down', { signal })
  clearInterval(running.cleanup)
  // Stop accepting, let in-flight requests and the billing step in progress finish, then release the database.
  await Promise.all([
    new Promise<void>((resolve) => httpServer.server.close(() => resolve())),
    running.billingRunner?.stop(),
    running.usdcWatchers?.stop(),
    running.pixWorker?.stop(),
    running.webhookWorker?.stop(),
  ])
  await running.application?.close()
  await running.embedded?.stop()
  process.exit(0)
}

/** A configuration that cannot work stops the process with one line saying why, not a stack trace. */
function readConfigurationOrExit(): Configuration {
  try {
    return readConfiguration()
  } catch (error) {
    process.stderr.write(`Invalid configuration: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}
