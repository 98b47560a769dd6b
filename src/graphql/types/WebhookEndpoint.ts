import { eventTypes } from '../../events/eventTypes'
import { createWebhookEndpoint } from '../../webhooks/createWebhookEndpoint'
import { deleteWebhookEndpoint } from '../../webhooks/deleteWebhookEndpoint'
import { getWebhookEndpoint } from '../../webhooks/getWebhookEndpoint'
import { redeliverEvent, type Redelivery } from '../../webhooks/redeliverEvent'
import { rotateWebhookEndpointSecret } from '../../webhooks/rotateWebhookEndpointSecret'
import { updateWebhookEndpoint } from '../../webhooks/updateWebhookEndpoint'
import { webhookAttemptList } from '../../webhooks/webhookAttemptList'
import { webhookEndpointList } from '../../webhooks/webhookEndpointList'
import { webhookEndpointLimits } from '../../webhooks/webhookEndpointRules'
import type { WebhookEndpointView } from '../../webhooks/WebhookEndpointView'
import { builder } from '../builder'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { pageArguments } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'

const WebhookEndpointStatusEnum = builder.enumType('WebhookEndpointStatus', { values: ['enabled', 'disabled'] as const })
const WebhookAttemptStatusEnum = builder.enumType('WebhookAttemptStatus', { values: ['succeeded', 'failed'] as const })

export const WebhookEndpointNode = builder.prismaNode('WebhookEndpoint', {
  id: { field: 'id' },
  description: 'Where the account\'s events are sent, signed per Standard Webhooks (CONTRACT §10).',
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Normalised; https only on live accounts.' }),
    events: t.exposeStringList('events', { description: `"*" or event types: ${eventTypes.join(', ')}.` }),
    description: t.exposeString('description', { nullable: true }),
    status: t.field({ type: WebhookEndpointStatusEnum, resolve: (endpoint) => endpoint.status }),
    secret: t.string({
      nullable: true,
      description: 'The signing secret (whsec_…): only in the answer of createWebhookEndpoint and rotateWebhookEndpointSecret, null everywhere else.',
      resolve: (endpoint) => (endpoint as WebhookEndpointView).revealedSecret ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
})

export const WebhookEndpointConnection = builder.connectionObject(
  { type: WebhookEndpointNode, name: 'WebhookEndpointConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) },
  { name: 'WebhookEndpointEdge' },
)

export const WebhookAttemptNode = builder.prismaNode('WebhookAttempt', {
  id: { field: 'id' },
  description: 'One attempt to deliver an event to an endpoint, as it went.',
  findUnique: (id, context) => ({ id, accountId: context.caller?.account.id ?? '' }),
  fields: (t) => ({
    eventId: t.exposeString('eventId'),
    endpointId: t.exposeString('endpointId'),
    attempt: t.exposeInt('attempt', { description: '1 for the first attempt of a delivery, then 2, 3, …' }),
    status: t.field({ type: WebhookAttemptStatusEnum, resolve: (attempt) => attempt.status }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true, description: 'The receiver\'s HTTP status; null when none came.' }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed, when it did.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const WebhookAttemptConnection = builder.connectionObject(
  { type: WebhookAttemptNode, name: 'WebhookAttemptConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) },
  { name: 'WebhookAttemptEdge' },
)

const DeletedWebhookEndpoint = builder.objectRef<{ id: string; deleted: true }>('DeletedWebhookEndpoint').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
})

export const EventRedelivery = builder.objectRef<Redelivery>('EventRedelivery').implement({
  fields: (t) => ({
    eventId: t.exposeID('eventId'),
    endpointIds: t.exposeIDList('endpointIds', { description: 'Every enabled endpoint that matches the event now; each gets it again.' }),
  }),
})

builder.queryFields((t) => ({
  webhookEndpoint: t.field({
    type: WebhookEndpointNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getWebhookEndpoint(requireCaller(context), String(args.id), 'id'),
  }),
  webhookEndpoints: t.field({
    type: WebhookEndpointConnection,
    description: 'Webhook endpoints, newest first (first: 1 to 500, default 100).',
    scopes: ['read'],
    args: pageArguments,
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, { list: 'webhookEndpoints', definition: webhookEndpointList, filter: {}, order: readOrder<'createdAt'>(null), args }),
  }),
  webhookEndpointDeliveries: t.field({
    type: WebhookAttemptConnection,
    description: 'Every delivery attempt to one endpoint, newest first (first: 1 to 500, default 100).',
    scopes: ['read'],
    args: { ...pageArguments, endpointId: t.arg.id({ required: true }) },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'webhookAttempts',
        definition: webhookAttemptList,
        filter: { endpointId: String(args.endpointId) },
        order: readOrder<'createdAt'>(null),
        args,
      }),
  }),
}))

const CreateWebhookEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: `At most ${webhookEndpointLimits.url} characters; https on live accounts, http allowed on test accounts.` }),
    events: t.stringList({ required: true, description: '"*" for every type, or event types.' }),
    description: t.string({ required: false, description: `At most ${webhookEndpointLimits.description} characters.` }),
  }),
})

const UpdateWebhookEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  description: 'Absent fields are left as they are; description null clears it.',
  fields: (t) => ({
    url: t.string({ required: false }),
    events: t.stringList({ required: false }),
    description: t.string({ required: false }),
    status: t.field({ type: WebhookEndpointStatusEnum, required: false, description: 'disabled stops deliveries (those still owed are given up); enabled resumes with new events.' }),
  }),
})

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookEndpointNode,
    description: `The answer holds the signing secret, shown only this once. At most ${webhookEndpointLimits.endpointsPerAccount} endpoints per account.`,
    scopes: ['write'],
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: (_root, args, context) => createWebhookEndpoint(requireCaller(context), args.input),
  }),
  updateWebhookEndpoint: t.field({
    type: WebhookEndpointNode,
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookEndpointInput, required: true }) },
    resolve: (_root, args, context) => updateWebhookEndpoint(requireCaller(context), String(args.id), args.input),
  }),
  deleteWebhookEndpoint: t.field({
    type: DeletedWebhookEndpoint,
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => deleteWebhookEndpoint(requireCaller(context), String(args.id)),
  }),
  rotateWebhookEndpointSecret: t.field({
    type: WebhookEndpointNode,
    description: 'A new secret, shown only in this answer; the previous one keeps signing for 24 hours.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => rotateWebhookEndpointSecret(requireCaller(context), String(args.id)),
  }),
  redeliverEvent: t.field({
    type: EventRedelivery,
    description: 'Sends the event again to every enabled endpoint that matches it now.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => redeliverEvent(requireCaller(context), String(args.id)),
  }),
}))
