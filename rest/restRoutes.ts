import type { RestRoute } from './RestRoute'
import { customerRoutes } from './routes/customerRoutes'

/** Every /v1 endpoint. The router, the OpenAPI document and the scope tests all read this table. */
export const restRoutes: RestRoute[] = [...customerRoutes]
