import { Counter, Histogram } from 'prom-client'
import { metricsRegistry } from './metricsRegistry'

// Webhook deliveries of this process. `outcome` is a closed set (sendWebhook's outcomes); no label
// names an account, an endpoint or a URL.

export const webhookDeliveries = new Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (succeeded, http_error, timeout, network_error, refused_address)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
})

export const webhookDeliveryDuration = new Histogram({
  name: 'webhook_delivery_duration_seconds',
  help: 'Duration of a webhook delivery attempt, from the request to the answer (or the failure)',
  labelNames: ['outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers: [metricsRegistry],
})
