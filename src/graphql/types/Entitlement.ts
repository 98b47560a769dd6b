import { checkEntitlement } from '../../entitlements/checkEntitlement'
import { entitlementList, type EntitlementFilter } from '../../entitlements/entitlementList'
import { builder } from '../builder'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
import { EntitlementSourceEnum, EntitlementStatusEnum } from './enums'

export const EntitlementNode = builder.prismaNode('Entitlement', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    productId: t.exposeString('productId'),
    status: t.expose('status', { type: EntitlementStatusEnum }),
    source: t.expose('source', { type: EntitlementSourceEnum }),
    subscriptionId: t.exposeString('subscriptionId', { nullable: true }),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const EntitlementConnection = builder.connectionObject({ type: EntitlementNode, name: 'EntitlementConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'EntitlementEdge' })

const EntitlementOrder = orderByInput('EntitlementOrder', { CREATED_AT: 'createdAt' })

/** The filters and order of every entitlement list (the top-level one adds customerId). */
export const entitlementListArguments = builder.args((t) => ({
  ...pageArguments,
  status: t.field({ type: EntitlementStatusEnum, required: false }),
  productId: t.id({ required: false }),
  createdAt: t.field({ type: TimeRangeInput, required: false }),
  orderBy: t.field({ type: EntitlementOrder, required: false, description: 'Default: newest first.' }),
}))

export function entitlementFilter(args: { status?: string | null; productId?: string | number | null; createdAt?: EntitlementFilter['createdAt'] }): EntitlementFilter {
  return { status: args.status, productId: args.productId == null ? null : String(args.productId), createdAt: args.createdAt }
}

const EntitlementReasonEnum = builder.enumType('EntitlementReason', { values: ['active', 'no_entitlement', 'expired', 'past_due', 'revoked'] as const })

const EntitlementCheckResult = builder.objectRef<{ allowed: boolean; reason: 'active' | 'no_entitlement' | 'expired' | 'past_due' | 'revoked' }>('EntitlementCheckResult').implement({
  fields: (t) => ({
    allowed: t.exposeBoolean('allowed'),
    reason: t.expose('reason', { type: EntitlementReasonEnum }),
  }),
})

const EntitlementCheckInput = builder.inputType('EntitlementCheckInput', {
  fields: (t) => ({ customerId: t.id({ required: true }), productId: t.id({ required: true }) }),
})

builder.queryFields((t) => ({
  entitlements: t.field({
    type: EntitlementConnection,
    description: 'A customer\'s entitlements, newest first.',
    scopes: ['read'],
    args: { ...entitlementListArguments, customerId: t.arg.id({ required: true }) },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'entitlements',
        definition: entitlementList,
        filter: { ...entitlementFilter(args), customerId: String(args.customerId) },
        order: readOrder(args.orderBy),
        args,
      }),
  }),
  entitlementCheck: t.field({
    type: EntitlementCheckResult,
    description: 'May the customer use the product? A denial is a result, not an error.',
    scopes: ['write'],
    args: { input: t.arg({ type: EntitlementCheckInput, required: true }) },
    resolve: (_root, args, context) => checkEntitlement(requireCaller(context), args.input),
  }),
}))
