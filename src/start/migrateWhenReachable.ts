import { logInfo, logWarning } from '../logging/log'
import { applyMigrations } from '../database/applyMigrations'
import { isDatabaseUnavailable } from '../database/isDatabaseUnavailable'

export interface RetryPacing {
  firstDelayMilliseconds: number
  maxDelayMilliseconds: number
}

const defaultPacing: RetryPacing = { firstDelayMilliseconds: 500, maxDelayMilliseconds: 10_000 }

/**
 * Applies the migrations as soon as the database can be reached: while it cannot (refused, reset,
 * timed out, starting up), tries again with exponential backoff, one log line per failed attempt.
 * Any other failure (a wrong password, a migration that fails) is not going to pass by waiting and
 * is thrown.
 */
export async function migrateWhenReachable(databaseUrl: string, pacing: RetryPacing = defaultPacing): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { applied } = await applyMigrations(databaseUrl)
      if (attempt > 1 || applied.length > 0) logInfo('database reachable and migrated', { attempt, applied: applied.length })
      return
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      const delay = Math.min(pacing.maxDelayMilliseconds, pacing.firstDelayMilliseconds * 2 ** Math.min(attempt - 1, 20))
      logWarning('database unreachable; retrying', { attempt, retryInSeconds: delay / 1000, reason: describe(error), database: hostOf(databaseUrl) })
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}

/** The error's code and first line, without any part of the URL (it may hold a password). */
function describe(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown }
  const line = typeof message === 'string' ? message.split('\n')[0]!.trim() : ''
  return [typeof code === 'string' ? code : '', line].filter((part) => part !== '').join(': ') || String(error)
}

function hostOf(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl)
    return `${url.hostname}:${url.port || '5432'}`
  } catch {
    return 'unparsable DATABASE_URL'
  }
}
