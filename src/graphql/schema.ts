import { builder } from './builder'
import './types/AccessCheck'
import './types/Account'
import './types/CheckoutSession'
import './types/Credits'
import './types/Customer'
import './types/Entitlement'
import './types/ErrorCode'
import './types/Invoice'
import './types/Meter'
import './types/Product'
import './types/Subscription'
import './types/Transaction'
import './types/UsageEvent'
import './types/UsdcProvider'

builder.queryType({})
builder.mutationType({})

export const schema = builder.toSchema({ sortSchema: true })
