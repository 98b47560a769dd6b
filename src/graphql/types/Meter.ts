import { createMeter } from '../../metering/createMeter'
import { meterList } from '../../metering/meterList'
import { getMeter } from '../../metering/getMeter'
import { summarizeUsage, type UsageSummary } from '../../metering/summarizeUsage'
import { builder } from '../builder'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
import { MeterAggregationEnum, MeterResetPeriodEnum, MeterUnitEnum } from './enums'

export const MeterNode = builder.prismaNode('Meter', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    name: t.exposeString('name'),
    slug: t.exposeString('slug', { description: 'Derived from the name; unique in the account.' }),
    aggregation: t.expose('aggregation', { type: MeterAggregationEnum }),
    unit: t.expose('unit', { type: MeterUnitEnum }),
    resetPeriod: t.expose('resetPeriod', { type: MeterResetPeriodEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

const MeterConnection = builder.connectionObject({ type: MeterNode, name: 'MeterConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'MeterEdge' })

const MeterOrder = orderByInput('MeterOrder', { CREATED_AT: 'createdAt', NAME: 'name' })

builder.queryFields((t) => ({
  meter: t.field({
    type: MeterNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getMeter(requireCaller(context), String(args.id), 'id'),
  }),
  meters: t.field({
    type: MeterConnection,
    description: 'Meters, newest first.',
    scopes: ['read'],
    args: {
      ...pageArguments,
      createdAt: t.arg({ type: TimeRangeInput, required: false }),
      orderBy: t.arg({ type: MeterOrder, required: false, description: 'Default: newest first.' }),
    },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, { list: 'meters', definition: meterList, filter: { createdAt: args.createdAt }, order: readOrder(args.orderBy), args }),
  }),
}))

const CreateMeterInput = builder.inputType('CreateMeterInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    aggregation: t.field({ type: MeterAggregationEnum, required: true }),
    unit: t.field({ type: MeterUnitEnum, required: true }),
    resetPeriod: t.field({ type: MeterResetPeriodEnum, required: true }),
  }),
})

builder.mutationField('createMeter', (t) =>
  t.field({
    type: MeterNode,
    scopes: ['write'],
    args: { input: t.arg({ type: CreateMeterInput, required: true }) },
    resolve: (_root, args, context) => createMeter(requireCaller(context), args.input),
  }),
)

export const UsageSummaryType = builder.objectRef<UsageSummary>('UsageSummary').implement({
  description: 'Usage in the meter\'s current reset window (calendar month, ISO week, or all time), by the account\'s clock.',
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    meterId: t.exposeString('meterId'),
    resetPeriod: t.expose('resetPeriod', { type: MeterResetPeriodEnum }),
    windowStart: t.expose('windowStart', { type: 'DateTime', nullable: true }),
    windowEnd: t.expose('windowEnd', { type: 'DateTime', nullable: true }),
    units: t.float({ resolve: (summary) => summary.units.toNumber() }),
  }),
})

builder.queryField('usageSummary', (t) =>
  t.field({
    type: UsageSummaryType,
    scopes: ['read'],
    args: { customerId: t.arg.id({ required: true }), meterId: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => summarizeUsage(requireCaller(context), { customerId: String(args.customerId), meterId: String(args.meterId) }),
  }),
)
