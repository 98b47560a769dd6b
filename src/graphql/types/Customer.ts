import { createCustomer } from '../../customers/createCustomer'
import { customerLimits } from '../../customers/customerRules'
import { getCustomer } from '../../customers/getCustomer'
import { listCustomers } from '../../customers/listCustomers'
import { updateCustomer } from '../../customers/updateCustomer'
import { builder } from '../builder'
import { resolveConnection } from '../connections'
import { forwardConnectionArgs } from '../forwardConnectionArgs'
import { authorize } from '../GraphQLContext'

export const CustomerType = builder.prismaNode('Customer', {
  id: { field: 'id' },
  // Node lookups see only the caller's account: another account's id resolves to null.
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    externalId: t.exposeString('externalId', { nullable: true, description: 'Your own id for this customer; unique in the account.' }),
    name: t.exposeString('name', { nullable: true }),
    email: t.expose('email', { type: 'EmailAddress', nullable: true }),
    metadata: t.expose('metadata', { type: 'JSONObject', nullable: true, description: 'Up to 50 keys of your own data.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
})

export const CustomerConnection = builder.connectionObject({ type: CustomerType, name: 'CustomerConnection' }, { name: 'CustomerEdge' })

builder.queryFields((t) => ({
  customer: t.field({
    type: CustomerType,
    description: 'A customer of the caller\'s account. Scope: read.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getCustomer(authorize(context, ['read']), String(args.id), 'id'),
  }),
  customers: t.field({
    type: CustomerConnection,
    description: 'Customers, newest first. Scope: read.',
    args: { ...forwardConnectionArgs, externalId: t.arg.string({ required: false }) },
    resolve: (_root, args, context) => resolveConnection(context, ['read'], 'customers', args, (domain, page) => listCustomers(domain, args, page)),
  }),
}))

const CreateCustomerInput = builder.inputType('CreateCustomerInput', {
  fields: (t) => ({
    externalId: t.string({ required: false, description: `Unique in the account; at most ${customerLimits.externalId} characters.` }),
    name: t.string({ required: false }),
    email: t.field({ type: 'EmailAddress', required: false }),
    metadata: t.field({ type: 'JSONObject', required: false }),
  }),
})

const UpdateCustomerInput = builder.inputType('UpdateCustomerInput', {
  description: 'Absent fields are left as they are; null clears a field; metadata is replaced whole.',
  fields: (t) => ({
    name: t.string({ required: false }),
    email: t.field({ type: 'EmailAddress', required: false }),
    metadata: t.field({ type: 'JSONObject', required: false }),
  }),
})

builder.mutationFields((t) => ({
  createCustomer: t.field({
    type: CustomerType,
    description: 'Scope: write. Fails with externalId_conflict when the externalId is taken.',
    args: { input: t.arg({ type: CreateCustomerInput, required: true }) },
    resolve: (_root, args, context) => createCustomer(authorize(context, ['write']), args.input),
  }),
  updateCustomer: t.field({
    type: CustomerType,
    description: 'Scope: write.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCustomerInput, required: true }) },
    resolve: (_root, args, context) => updateCustomer(authorize(context, ['write']), String(args.id), args.input),
  }),
}))
