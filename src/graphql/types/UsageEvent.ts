import { formatAmount } from '../../domain/money'
import { listUsageEvents } from '../../metering/listUsageEvents'
import { recordUsageEvent } from '../../metering/recordUsageEvent'
import { builder } from '../builder'
import { resolveConnection } from '../connections'
import { forwardConnectionArgs } from '../forwardConnectionArgs'
import { authorize } from '../GraphQLContext'
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
      resolve: (event) => (event.cost && event.costCurrency ? formatAmount(event.cost, event.costCurrency) : null),
    }),
    costCurrency: t.expose('costCurrency', { type: CurrencyEnum, nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const UsageEventConnection = builder.connectionObject({ type: UsageEventNode, name: 'UsageEventConnection' }, { name: 'UsageEventEdge' })

builder.queryField('usageEvents', (t) =>
  t.field({
    type: UsageEventConnection,
    description: 'Usage events, newest first. Scope: read.',
    args: { ...forwardConnectionArgs, customerId: t.arg.string({ required: false }), meterId: t.arg.string({ required: false }) },
    resolve: (_root, args, context) => resolveConnection(context, ['read'], 'usageEvents', args, (domain, page) => listUsageEvents(domain, args, page)),
  }),
)

export const RecordUsageEventInput = builder.inputType('RecordUsageEventInput', {
  fields: (t) => ({
    customerId: t.string({ required: true }),
    meterId: t.string({ required: true }),
    quantity: t.float({ required: true, description: 'Greater than zero.' }),
    idempotencyKey: t.string({ required: true, description: 'Unique per account: a retry with the same key and payload returns the original event.' }),
    metadata: t.field({ type: 'JSONObject', required: false }),
  }),
})

builder.mutationField('recordUsageEvent', (t) =>
  t.field({
    type: UsageEventNode,
    description: 'Scope: write or usage:write. Debits credits when a credits price applies to the meter.',
    args: { input: t.arg({ type: RecordUsageEventInput, required: true }) },
    resolve: (_root, args, context) => recordUsageEvent(authorize(context, ['write', 'usage:write']), args.input),
  }),
)
