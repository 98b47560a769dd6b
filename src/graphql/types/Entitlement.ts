import { checkEntitlement } from '../../entitlements/checkEntitlement'
import { listEntitlements } from '../../entitlements/listEntitlements'
import { builder } from '../builder'
import { resolveConnection } from '../connections'
import { forwardConnectionArgs } from '../forwardConnectionArgs'
import { authorize } from '../GraphQLContext'
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

export const EntitlementConnection = builder.connectionObject({ type: EntitlementNode, name: 'EntitlementConnection' }, { name: 'EntitlementEdge' })

const EntitlementReasonEnum = builder.enumType('EntitlementReason', { values: ['active', 'no_entitlement', 'expired', 'past_due', 'revoked'] as const })

const EntitlementCheckResult = builder.objectRef<{ allowed: boolean; reason: 'active' | 'no_entitlement' | 'expired' | 'past_due' | 'revoked' }>('EntitlementCheckResult').implement({
  fields: (t) => ({
    allowed: t.exposeBoolean('allowed'),
    reason: t.expose('reason', { type: EntitlementReasonEnum }),
  }),
})

const EntitlementCheckInput = builder.inputType('EntitlementCheckInput', {
  fields: (t) => ({ customerId: t.string({ required: true }), productId: t.string({ required: true }) }),
})

builder.queryFields((t) => ({
  entitlements: t.field({
    type: EntitlementConnection,
    description: 'A customer\'s entitlements, newest first. Scope: read.',
    args: { ...forwardConnectionArgs, customerId: t.arg.string({ required: true }) },
    resolve: (_root, args, context) => resolveConnection(context, ['read'], 'entitlements', args, (domain, page) => listEntitlements(domain, args.customerId, page)),
  }),
  entitlementCheck: t.field({
    type: EntitlementCheckResult,
    description: 'May the customer use the product? A denial is a result, not an error. Scope: write.',
    args: { input: t.arg({ type: EntitlementCheckInput, required: true }) },
    resolve: (_root, args, context) => checkEntitlement(authorize(context, ['write']), args.input),
  }),
}))
