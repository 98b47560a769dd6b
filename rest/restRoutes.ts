import type { RestRoute } from './RestRoute'
import { customerRoutes } from './routes/customerRoutes'
import { eventRoutes } from './routes/eventRoutes'
import { paymentRoutes } from './routes/paymentRoutes'
import { productRoutes } from './routes/productRoutes'
import { subscriptionRoutes } from './routes/subscriptionRoutes'
import { usageRoutes } from './routes/usageRoutes'
import { webhookEndpointRoutes } from './routes/webhookEndpointRoutes'

/** Every /v1 endpoint. The router, the OpenAPI document and the access tests all read this table (compiled against the schema, which gives each its scopes). */
export const restRoutes: RestRoute[] = [...customerRoutes, ...productRoutes, ...usageRoutes, ...paymentRoutes, ...subscriptionRoutes, ...eventRoutes, ...webhookEndpointRoutes]
