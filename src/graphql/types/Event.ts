import { eventTypes } from '../../events/eventTypes'
import { getEvent } from '../../events/getEvent'
import { eventList } from '../../events/eventList'
import { builder } from '../builder'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'

export const EventNode = builder.prismaNode('Event', {
  id: { field: 'id' },
  description: 'Something that happened, recorded in the same transaction as the change (CONTRACT §10).',
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    type: t.exposeString('type', { description: `One of: ${eventTypes.join(', ')}.` }),
    data: t.expose('data', { type: 'JSONObject', description: 'The resource as its GET returned it when the event happened.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const EventConnection = builder.connectionObject({ type: EventNode, name: 'EventConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'EventEdge' })

const EventOrder = orderByInput('EventOrder', { CREATED_AT: 'createdAt' })

builder.queryFields((t) => ({
  event: t.field({
    type: EventNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getEvent(requireCaller(context), String(args.id), 'id'),
  }),
  events: t.field({
    type: EventConnection,
    description: 'Events, newest first (first: 1 to 500, default 100), optionally of one type.',
    scopes: ['read'],
    args: {
      ...pageArguments,
      type: t.arg.string({ required: false }),
      createdAt: t.arg({ type: TimeRangeInput, required: false }),
      orderBy: t.arg({ type: EventOrder, required: false, description: 'Default: newest first.' }),
    },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, { list: 'events', definition: eventList, filter: { type: args.type, createdAt: args.createdAt }, order: readOrder(args.orderBy), args }),
  }),
}))
