import { createFirstKeyIfNone, ensureBootstrapKey } from './accounts/ensureBootstrapKey'
import { startBillingRunner } from './billing/startBillingRunner'
import { createApplication } from './createApplication'
import { openConfiguredDatabase } from './database/openConfiguredDatabase'
import { systemClock } from './domain/DomainContext'
import { logError, logInfo } from './http/log'
import { removeExpiredIdempotencyRecords } from './idempotency/removeExpiredIdempotencyRecords'
import { startPixWorker } from './payments/pix/startPixWorker'
import { startUsdcWatchers } from './payments/usdc/startUsdcWatchers'
import { readConfiguration } from './readConfiguration'
import { removeOldRateLimitWindows } from './accounts/RateLimiter'
import { startWebhookWorker } from './webhooks/startWebhookWorker'

// `npm start`: the listening process. Everything it serves is built by createApplication.

const configuration = readConfiguration()
const { url: databaseUrl, embedded } = await openConfiguredDatabase(configuration)
if (embedded) logInfo('embedded PostgreSQL started', { dataDirectory: configuration.dataDirectory, created: embedded.created })
const application = await createApplication({
  databaseUrl,
  publicUrl: configuration.publicUrl,
  paymentRails: configuration.paymentRails,
  rateLimitPerSecond: configuration.rateLimitPerSecond,
  graphql: configuration.graphql,
  http: configuration.http,
  ...(configuration.metricsToken ? { metricsToken: configuration.metricsToken } : {}),
})
const { prisma } = application.services.database
if (configuration.bootstrapKey) await ensureBootstrapKey({ db: prisma, clock: systemClock }, configuration.bootstrapKey)
if (embedded?.created) {
  const firstKey = await createFirstKeyIfNone(prisma, systemClock)
  if (firstKey) {
    // Printed once, on the run that created the database: the key is stored only as a hash.
    process.stdout.write(`\nA test API key for the account "default" (shown once, keep it):\n\n  ${firstKey.key}\n\n`)
  }
}

const cleanup = setInterval(() => {
  removeExpiredIdempotencyRecords(prisma, systemClock).catch((error: unknown) => logError(error))
  removeOldRateLimitWindows(application.services.database.pool).catch((error: unknown) => logError(error))
}, 60 * 1000)
cleanup.unref()

// Chain watchers: one loop per configured chain and token (USDC providers, CONTRACT §9.2).
const usdcWatchers = startUsdcWatchers(prisma)

const billingRunner = configuration.billingIntervalSeconds > 0 ? startBillingRunner(prisma, configuration.billingIntervalSeconds * 1000) : undefined
const pixWorker = configuration.pixIntervalSeconds > 0 ? startPixWorker(prisma, configuration.pixIntervalSeconds * 1000) : undefined
const webhookWorker =
  configuration.webhookConcurrency > 0
    ? startWebhookWorker(
        { pool: application.services.database.pool, databaseUrl },
        {
          concurrency: configuration.webhookConcurrency,
          timeoutMs: configuration.webhookTimeoutSeconds * 1000,
          retryScheduleMs: configuration.webhookRetryScheduleSeconds.map((seconds) => seconds * 1000),
        },
      )
    : undefined

application.server.listen(configuration.port, configuration.host, () => {
  logInfo('listening', { url: `http://${configuration.host}:${configuration.port}`, graphql: '/graphql', rest: '/v1' })
})

let stopping = false
async function shutdown(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  logInfo('shutting down', { signal })
  clearInterval(cleanup)
  // Stop accepting, let in-flight requests and the billing step in progress finish, then release the database.
  await Promise.all([new Promise<void>((resolve) => application.server.close(() => resolve())), billingRunner?.stop(), usdcWatchers.stop(), pixWorker?.stop(), webhookWorker?.stop()])
  await application.close()
  await embedded?.stop()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
