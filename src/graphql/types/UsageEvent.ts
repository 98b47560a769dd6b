import { formatAmount } from '../../domain/money'
import { usageEventList, type UsageEventFilter } from '../../metering/usageEventList'
import { builder } from '../builder'
import { amountOutput, metadataInput, positiveQuantity } from '../jsonSchemaExtensions'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
import { CurrencyEnum } from './enums'

export const UsageEventNode = builder.prismaNode('UsageEvent', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ id, accountId: context.caller?.account.id ?? '' }),
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    meterId: t.exposeString('meterId'),
    quantity: t.float({ resolve: (event) => event.quantity.toNumber() }),
    status: t.string({ description: 'Always `recorded`: an event is a fact once accepted.', resolve: () => 'recorded' }),
    metadata: t.expose('metadata', { type: 'JSONObject', nullable: true }),
    cost: t.string({
      nullable: true,
      description: 'What was debited from the customer\'s credits for this event, when a credits price applied.',
      extensions: amountOutput,
      resolve: (event) => (event.cost && event.costCurrency ? formatAmount(event.cost, event.costCurrency) : null),
    }),
    costCurrency: t.expose('costCurrency', { type: CurrencyEnum, nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const UsageEventConnection = builder.connectionObject({ type: UsageEventNode, name: 'UsageEventConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'UsageEventEdge' })

const UsageEventOrder = orderByInput('UsageEventOrder', { CREATED_AT: 'createdAt' })

/** The filters and order of every usage event list (the top-level one adds customerId). */
export const usageEventListArguments = builder.args((t) => ({
  ...pageArguments,
  meterId: t.id({ required: false }),
  createdAt: t.field({ type: TimeRangeInput, required: false }),
  orderBy: t.field({ type: UsageEventOrder, required: false, description: 'Default: newest first.' }),
}))

export function usageEventFilter(args: { meterId?: string | number | null; createdAt?: UsageEventFilter['createdAt'] }): UsageEventFilter {
  return { meterId: args.meterId == null ? null : String(args.meterId), createdAt: args.createdAt }
}

builder.queryField('usageEvents', (t) =>
  t.field({
    type: UsageEventConnection,
    description: 'Usage events, newest first.',
    scopes: ['read'],
    args: { ...usageEventListArguments, customerId: t.arg.id({ required: false }) },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'usageEvents',
        definition: usageEventList,
        filter: { ...usageEventFilter(args), customerId: args.customerId == null ? null : String(args.customerId) },
        order: readOrder(args.orderBy),
        args,
      }),
  }),
)

export const RecordUsageEventInput = builder.inputType('RecordUsageEventInput', {
  fields: (t) => ({
    customerId: t.id({ required: true }),
    meterId: t.id({ required: true }),
    quantity: t.float({ required: true, description: 'Greater than zero.', extensions: positiveQuantity }),
    idempotencyKey: t.string({ required: true, description: 'Unique per account: a retry with the same key and payload returns the original event.' }),
    metadata: t.field({ type: 'JSONObject', required: false, extensions: metadataInput }),
  }),
})

builder.mutationField('recordUsageEvent', (t) =>
  t.field({
    type: UsageEventNode,
    description: 'Debits credits when a credits price applies to the meter.',
    scopes: ['write', 'usage:write'],
    args: { input: t.arg({ type: RecordUsageEventInput, required: true }) },
    resolve: (_root, args, context) => context.services.usageEvents.record(requireCaller(context), args.input),
  }),
)
