import { changeSubscriptionState } from '../../subscriptions/changeSubscriptionState'
import { createSubscription } from '../../subscriptions/createSubscription'
import { getSubscription } from '../../subscriptions/getSubscription'
import { listSubscriptions } from '../../subscriptions/listSubscriptions'
import { builder } from '../builder'
import { resolveConnection } from '../connections'
import { forwardConnectionArgs } from '../forwardConnectionArgs'
import { authorize } from '../GraphQLContext'
import { PaymentMethodEnum, SubscriptionStatusEnum } from './enums'

export const SubscriptionNode = builder.prismaNode('Subscription', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    status: t.expose('status', { type: SubscriptionStatusEnum }),
    customerId: t.exposeString('customerId'),
    productId: t.exposeString('productId'),
    priceId: t.exposeString('priceId'),
    paymentMethod: t.expose('paymentMethod', { type: PaymentMethodEnum }),
    currentPeriodStart: t.expose('currentPeriodStart', { type: 'DateTime' }),
    currentPeriodEnd: t.expose('currentPeriodEnd', { type: 'DateTime' }),
    canceledAt: t.expose('canceledAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const SubscriptionConnection = builder.connectionObject({ type: SubscriptionNode, name: 'SubscriptionConnection' }, { name: 'SubscriptionEdge' })

builder.queryFields((t) => ({
  subscription: t.field({
    type: SubscriptionNode,
    description: 'Scope: read.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getSubscription(authorize(context, ['read']), String(args.id), 'id'),
  }),
  subscriptions: t.field({
    type: SubscriptionConnection,
    description: 'Subscriptions, newest first. Scope: read.',
    args: { ...forwardConnectionArgs, customerId: t.arg.string({ required: false }) },
    resolve: (_root, args, context) => resolveConnection(context, ['read'], 'subscriptions', args, (domain, page) => listSubscriptions(domain, args, page)),
  }),
}))

const CreateSubscriptionInput = builder.inputType('CreateSubscriptionInput', {
  fields: (t) => ({
    customerId: t.string({ required: true }),
    productId: t.string({ required: true }),
    paymentMethod: t.field({ type: PaymentMethodEnum, required: false, description: 'Default: the first of the account\'s enabled rails that settles the price\'s currency.' }),
  }),
})

builder.mutationFields((t) => ({
  createSubscription: t.field({
    type: SubscriptionNode,
    description: 'Scope: write. Starts trialing with its first invoice open (active at once when that invoice is zero).',
    args: { input: t.arg({ type: CreateSubscriptionInput, required: true }) },
    resolve: async (_root, args, context) => (await createSubscription(authorize(context, ['write']), args.input)).subscription,
  }),
  cancelSubscription: t.field({
    type: SubscriptionNode,
    description: 'Scope: write. From any state but canceled.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => changeSubscriptionState(authorize(context, ['write']), String(args.id), 'cancel'),
  }),
  pauseSubscription: t.field({
    type: SubscriptionNode,
    description: 'Scope: write. From active only.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => changeSubscriptionState(authorize(context, ['write']), String(args.id), 'pause'),
  }),
  resumeSubscription: t.field({
    type: SubscriptionNode,
    description: 'Scope: write. From paused only.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => changeSubscriptionState(authorize(context, ['write']), String(args.id), 'resume'),
  }),
}))
