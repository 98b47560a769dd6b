import { createHash, timingSafeEqual } from 'node:crypto'
import type { Services } from '../Services'
import { DomainError } from '../domain/DomainError'
import { recordSubscriptionsDue } from './billingMetrics'
import { recordPoolUse } from './databaseMetrics'
import { metricsRegistry } from './metricsRegistry'

export interface MetricsAnswer {
  contentType: string
  body: string
}

/**
 * GET /metrics: the registry in Prometheus text format. The caller has checked that METRICS_TOKEN is
 * set (without it there is no /metrics at all); a missing or wrong bearer token is refused as 401.
 */
export async function serveMetrics(services: Services, token: string, authorization: string | undefined): Promise<MetricsAnswer> {
  if (!bearerMatches(authorization, token)) throw new DomainError('unauthorized', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>"')
  recordPoolUse(services.database.pool)
  // A database that is down must not hide the rest: the backlog gauge keeps its last value.
  await recordSubscriptionsDue(services.database.pool).catch(() => undefined)
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() }
}

/** Constant-time: both sides are hashed first, so neither the length nor a prefix leaks through timing. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? ''
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0
}
