import { createCustomer } from '../../customers/createCustomer'
import { customerLimits } from '../../customers/customerRules'
import { getCustomer } from '../../customers/getCustomer'
import { listCustomers } from '../../customers/listCustomers'
import { updateCustomer } from '../../customers/updateCustomer'
import { listCreditBalances } from '../../credits/listCreditBalances'
import type { CreditBalance, CreditLedgerEntry, Entitlement, Invoice, Subscription, Transaction, UsageEvent } from '../../generated/prisma/client'
import { builder } from '../builder'
import { loadCustomerRecords } from '../loadCustomerRecords'
import { requestLoader } from '../requestLoader'
import { CreditBalanceType, CreditLedgerConnection } from './Credits'
import { EntitlementConnection } from './Entitlement'
import { InvoiceConnection } from './Invoice'
import { SubscriptionConnection } from './Subscription'
import { TransactionConnection } from './Transaction'
import { UsageEventConnection } from './UsageEvent'
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
    taxId: t.exposeString('taxId', { nullable: true, description: 'The payer\'s CPF (11 digits) or CNPJ (14 characters), as Pix Automático needs it.' }),
    metadata: t.expose('metadata', { type: 'JSONObject', nullable: true, description: 'Up to 50 keys of your own data.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    creditBalances: t.field({
      type: [CreditBalanceType],
      description: 'One balance per currency that ever moved. Scope: read.',
      resolve: async (customer, _args, context) => {
        const domain = authorize(context, ['read'])
        const loader = requestLoader<string, CreditBalance[]>(context, 'customer.creditBalances', async (ids) => {
          const balances = await listCreditBalances(domain, ids)
          return ids.map((id) => balances.get(id) ?? [])
        })
        return (await loader.load(customer.id)).map((row) => ({ customerId: row.customerId, currency: row.currency, balance: row.balance, updatedAt: row.updatedAt }))
      },
    }),
    creditLedger: t.field({
      type: CreditLedgerConnection,
      description: 'Newest first. Scope: read.',
      args: forwardConnectionArgs,
      resolve: (customer, args, context) => loadCustomerRecords<CreditLedgerEntry>(context, 'creditLedger', customer.id, args),
    }),
    usageEvents: t.field({
      type: UsageEventConnection,
      description: 'Newest first. Scope: read.',
      args: forwardConnectionArgs,
      resolve: (customer, args, context) => loadCustomerRecords<UsageEvent>(context, 'usageEvents', customer.id, args),
    }),
    subscriptions: t.field({
      type: SubscriptionConnection,
      description: 'Newest first. Scope: read.',
      args: forwardConnectionArgs,
      resolve: (customer, args, context) => loadCustomerRecords<Subscription>(context, 'subscriptions', customer.id, args),
    }),
    entitlements: t.field({
      type: EntitlementConnection,
      description: 'Newest first. Scope: read.',
      args: forwardConnectionArgs,
      resolve: (customer, args, context) => loadCustomerRecords<Entitlement>(context, 'entitlements', customer.id, args),
    }),
    invoices: t.field({
      type: InvoiceConnection,
      description: 'Newest first. Scope: read.',
      args: forwardConnectionArgs,
      resolve: (customer, args, context) => loadCustomerRecords<Invoice>(context, 'invoices', customer.id, args),
    }),
    transactions: t.field({
      type: TransactionConnection,
      description: 'Newest first. Scope: read.',
      args: forwardConnectionArgs,
      resolve: (customer, args, context) => loadCustomerRecords<Transaction>(context, 'transactions', customer.id, args),
    }),
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
    taxId: t.string({ required: false, description: 'CPF or CNPJ with valid check digits (dots, dashes and slashes are dropped). Needed for pix_auto subscriptions on an account with a PIX provider.' }),
    metadata: t.field({ type: 'JSONObject', required: false }),
  }),
})

const UpdateCustomerInput = builder.inputType('UpdateCustomerInput', {
  description: 'Absent fields are left as they are; null clears a field; metadata is replaced whole.',
  fields: (t) => ({
    name: t.string({ required: false }),
    email: t.field({ type: 'EmailAddress', required: false }),
    taxId: t.string({ required: false, description: 'CPF or CNPJ with valid check digits (dots, dashes and slashes are dropped). Needed for pix_auto subscriptions on an account with a PIX provider.' }),
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
