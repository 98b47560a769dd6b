import { builder } from './builder'
import './types/Customer'
import './types/ErrorCode'

builder.queryType({})
builder.mutationType({})

export const schema = builder.toSchema({ sortSchema: true })
