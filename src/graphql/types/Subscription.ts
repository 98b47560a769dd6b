import { changeSubscriptionState } from '../../subscriptions/changeSubscriptionState'
import { createSubscription } from '../../subscriptions/createSubscription'
import { getSubscription } from '../../subscriptions/getSubscription'
import { subscriptionList, type SubscriptionFilter } from '../../subscriptions/subscriptionList'
import { builder } from '../builder'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
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

export const SubscriptionConnection = builder.connectionObject({ type: SubscriptionNode, name: 'SubscriptionConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'SubscriptionEdge' })

const SubscriptionOrder = orderByInput('SubscriptionOrder', { CREATED_AT: 'createdAt', CURRENT_PERIOD_END: 'currentPeriodEnd' })

/** The filters and order of every subscription list (the top-level one adds customerId). */
export const subscriptionListArguments = builder.args((t) => ({
  ...pageArguments,
  status: t.field({ type: SubscriptionStatusEnum, required: false }),
  productId: t.id({ required: false }),
  createdAt: t.field({ type: TimeRangeInput, required: false }),
  orderBy: t.field({ type: SubscriptionOrder, required: false, description: 'Default: newest first.' }),
}))

export function subscriptionFilter(args: { status?: string | null; productId?: string | number | null; createdAt?: SubscriptionFilter['createdAt'] }): SubscriptionFilter {
  return { status: args.status, productId: args.productId == null ? null : String(args.productId), createdAt: args.createdAt }
}

builder.queryFields((t) => ({
  subscription: t.field({
    type: SubscriptionNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getSubscription(requireCaller(context), String(args.id), 'id'),
  }),
  subscriptions: t.field({
    type: SubscriptionConnection,
    description: 'Subscriptions, newest first.',
    scopes: ['read'],
    args: { ...subscriptionListArguments, customerId: t.arg.id({ required: false }) },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'subscriptions',
        definition: subscriptionList,
        filter: { ...subscriptionFilter(args), customerId: args.customerId == null ? null : String(args.customerId) },
        order: readOrder(args.orderBy),
        args,
      }),
  }),
}))

const CreateSubscriptionInput = builder.inputType('CreateSubscriptionInput', {
  fields: (t) => ({
    customerId: t.id({ required: true }),
    productId: t.id({ required: true }),
    paymentMethod: t.field({ type: PaymentMethodEnum, required: false, description: 'Default: the first of the account\'s enabled rails that settles the price\'s currency.' }),
  }),
})

builder.mutationFields((t) => ({
  createSubscription: t.field({
    type: SubscriptionNode,
    description: 'Starts trialing with its first invoice open (active at once when that invoice is zero).',
    scopes: ['write'],
    args: { input: t.arg({ type: CreateSubscriptionInput, required: true }) },
    resolve: async (_root, args, context) => (await createSubscription(requireCaller(context), args.input)).subscription,
  }),
  cancelSubscription: t.field({
    type: SubscriptionNode,
    description: 'From any state but canceled.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => changeSubscriptionState(requireCaller(context), String(args.id), 'cancel'),
  }),
  pauseSubscription: t.field({
    type: SubscriptionNode,
    description: 'From active only.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => changeSubscriptionState(requireCaller(context), String(args.id), 'pause'),
  }),
  resumeSubscription: t.field({
    type: SubscriptionNode,
    description: 'From paused only.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => changeSubscriptionState(requireCaller(context), String(args.id), 'resume'),
  }),
}))
