import { builder } from './builder'
import './types/AccessCheck'
import './types/CheckoutSession'
import './types/Credits'
import './types/Customer'
import './types/ErrorCode'
import './types/Meter'
import './types/Product'
import './types/Transaction'
import './types/UsageEvent'

builder.queryType({})
builder.mutationType({})

export const schema = builder.toSchema({ sortSchema: true })
