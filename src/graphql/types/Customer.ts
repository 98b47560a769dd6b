import { createCustomer } from '../../customers/createCustomer'
import { customerLimits } from '../../customers/customerRules'
import { getCustomer } from '../../customers/getCustomer'
import { customerList } from '../../customers/customerList'
import { creditLedgerList } from '../../credits/creditLedgerList'
import { entitlementList } from '../../entitlements/entitlementList'
import { invoiceList } from '../../invoices/invoiceList'
import { usageEventList } from '../../metering/usageEventList'
import { subscriptionList } from '../../subscriptions/subscriptionList'
import { transactionList } from '../../transactions/transactionList'
import { updateCustomer } from '../../customers/updateCustomer'
import { listCreditBalances } from '../../credits/listCreditBalances'
import type { CreditBalance } from '../../generated/prisma/client'
import { builder } from '../builder'
import { metadataInput } from '../jsonSchemaExtensions'
import { loadCustomerRecords } from '../loadCustomerRecords'
import { requestLoader } from '../requestLoader'
import { CreditBalanceType, CreditLedgerConnection, creditLedgerFilter, creditLedgerListArguments } from './Credits'
import { EntitlementConnection, entitlementFilter, entitlementListArguments } from './Entitlement'
import { InvoiceConnection, invoiceFilter, invoiceListArguments, invoicePageSize } from './Invoice'
import { SubscriptionConnection, subscriptionFilter, subscriptionListArguments } from './Subscription'
import { TransactionConnection, transactionFilter, transactionListArguments } from './Transaction'
import { UsageEventConnection, usageEventFilter, usageEventListArguments } from './UsageEvent'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'

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
      description: 'One balance per currency that ever moved.',
      scopes: ['read'],
      resolve: async (customer, _args, context) => {
        const domain = requireCaller(context)
        const loader = requestLoader<string, CreditBalance[]>(context, 'customer.creditBalances', async (ids) => {
          const balances = await listCreditBalances(domain, ids)
          return ids.map((id) => balances.get(id) ?? [])
        })
        return (await loader.load(customer.id)).map((row) => ({ customerId: row.customerId, currency: row.currency, balance: row.balance, updatedAt: row.updatedAt }))
      },
    }),
    creditLedger: t.field({
      type: CreditLedgerConnection,
      description: 'Newest first unless ordered.',
      scopes: ['read'],
      args: creditLedgerListArguments,
      resolve: (customer, args, context, info) =>
        loadCustomerRecords(context, info, customer.id, {
          list: 'creditLedger', definition: creditLedgerList, filter: creditLedgerFilter(args), order: readOrder(args.orderBy), args,
        }),
    }),
    usageEvents: t.field({
      type: UsageEventConnection,
      description: 'Newest first unless ordered.',
      scopes: ['read'],
      args: usageEventListArguments,
      resolve: (customer, args, context, info) =>
        loadCustomerRecords(context, info, customer.id, {
          list: 'usageEvents', definition: usageEventList, filter: usageEventFilter(args), order: readOrder(args.orderBy), args,
        }),
    }),
    subscriptions: t.field({
      type: SubscriptionConnection,
      description: 'Newest first unless ordered.',
      scopes: ['read'],
      args: subscriptionListArguments,
      resolve: (customer, args, context, info) =>
        loadCustomerRecords(context, info, customer.id, {
          list: 'subscriptions', definition: subscriptionList, filter: subscriptionFilter(args), order: readOrder(args.orderBy), args,
        }),
    }),
    entitlements: t.field({
      type: EntitlementConnection,
      description: 'Newest first unless ordered.',
      scopes: ['read'],
      args: entitlementListArguments,
      resolve: (customer, args, context, info) =>
        loadCustomerRecords(context, info, customer.id, {
          list: 'entitlements', definition: entitlementList, filter: entitlementFilter(args), order: readOrder(args.orderBy), args,
        }),
    }),
    invoices: t.field({
      type: InvoiceConnection,
      description: 'Newest first unless ordered.',
      scopes: ['read'],
      args: invoiceListArguments,
      resolve: (customer, args, context, info) =>
        loadCustomerRecords(context, info, customer.id, {
          list: 'invoices', definition: invoiceList, filter: invoiceFilter(args), order: readOrder(args.orderBy), args, limits: invoicePageSize,
        }),
    }),
    transactions: t.field({
      type: TransactionConnection,
      description: 'Newest first unless ordered.',
      scopes: ['read'],
      args: transactionListArguments,
      resolve: (customer, args, context, info) =>
        loadCustomerRecords(context, info, customer.id, {
          list: 'transactions', definition: transactionList, filter: transactionFilter(args), order: readOrder(args.orderBy), args,
        }),
    }),
  }),
})

export const CustomerConnection = builder.connectionObject({ type: CustomerType, name: 'CustomerConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'CustomerEdge' })

const CustomerOrder = orderByInput('CustomerOrder', { CREATED_AT: 'createdAt', NAME: 'name' })

builder.queryFields((t) => ({
  customer: t.field({
    type: CustomerType,
    description: 'A customer of the caller\'s account.',
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getCustomer(requireCaller(context), String(args.id), 'id'),
  }),
  customers: t.field({
    type: CustomerConnection,
    description: 'Customers, newest first unless ordered; filters combine (and).',
    scopes: ['read'],
    args: {
      ...pageArguments,
      externalId: t.arg.string({ required: false, description: 'Exactly this externalId.' }),
      externalIdPrefix: t.arg.string({ required: false, description: 'externalIds that start with this (case-sensitive).' }),
      namePrefix: t.arg.string({ required: false, description: 'Names that start with this, ignoring case.' }),
      emailPrefix: t.arg.string({ required: false, description: 'Emails that start with this, ignoring case.' }),
      createdAt: t.arg({ type: TimeRangeInput, required: false }),
      orderBy: t.arg({ type: CustomerOrder, required: false, description: 'Default: newest first. By name: customers without a name sort last ascending.' }),
    },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'customers',
        definition: customerList,
        filter: { externalId: args.externalId, externalIdPrefix: args.externalIdPrefix, namePrefix: args.namePrefix, emailPrefix: args.emailPrefix, createdAt: args.createdAt },
        order: readOrder(args.orderBy),
        args,
      }),
  }),
}))

const CreateCustomerInput = builder.inputType('CreateCustomerInput', {
  fields: (t) => ({
    externalId: t.string({ required: false, description: `Unique in the account; at most ${customerLimits.externalId} characters.` }),
    name: t.string({ required: false }),
    email: t.field({ type: 'EmailAddress', required: false }),
    taxId: t.string({ required: false, description: 'CPF or CNPJ with valid check digits (dots, dashes and slashes are dropped). Needed for pix_auto subscriptions on an account with a PIX provider.' }),
    metadata: t.field({ type: 'JSONObject', required: false, extensions: metadataInput }),
  }),
})

const UpdateCustomerInput = builder.inputType('UpdateCustomerInput', {
  description: 'Absent fields are left as they are; null clears a field; metadata is replaced whole.',
  fields: (t) => ({
    name: t.string({ required: false }),
    email: t.field({ type: 'EmailAddress', required: false }),
    taxId: t.string({ required: false, description: 'CPF or CNPJ with valid check digits (dots, dashes and slashes are dropped). Needed for pix_auto subscriptions on an account with a PIX provider.' }),
    metadata: t.field({ type: 'JSONObject', required: false, extensions: metadataInput }),
  }),
})

builder.mutationFields((t) => ({
  createCustomer: t.field({
    type: CustomerType,
    description: 'Fails with externalId_conflict when the externalId is taken.',
    scopes: ['write'],
    args: { input: t.arg({ type: CreateCustomerInput, required: true }) },
    resolve: (_root, args, context) => createCustomer(requireCaller(context), args.input),
  }),
  updateCustomer: t.field({
    type: CustomerType,
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCustomerInput, required: true }) },
    resolve: (_root, args, context) => updateCustomer(requireCaller(context), String(args.id), args.input),
  }),
}))
