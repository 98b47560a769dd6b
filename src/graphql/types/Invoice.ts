import { formatAmount, type Currency } from '../../domain/money'
import type { InvoiceLine } from '../../generated/prisma/client'
import { requireTestAccount } from '../../domain/requireTestAccount'
import { getInvoice } from '../../invoices/getInvoice'
import { invoiceList, type InvoiceFilter } from '../../invoices/invoiceList'
import { settleInvoicePayment } from '../../invoices/settleInvoicePayment'
import { builder } from '../builder'
import { amountOutput, pageSize } from '../jsonSchemaExtensions'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
import { requestLoader } from '../requestLoader'
import { loadInvoicePayment, PaymentInstructions } from './PaymentInstructions'
import { CurrencyEnum, InvoiceStatusEnum, PaymentMethodEnum } from './enums'

export const invoicePageSize = { defaultSize: 100, maxSize: 1000, minSize: 1 }

type PricedLine = InvoiceLine & { currency: Currency }

export const InvoiceLineType = builder.objectRef<PricedLine>('InvoiceLine').implement({
  fields: (t) => ({
    description: t.exposeString('description'),
    priceId: t.exposeString('priceId', { nullable: true }),
    meterId: t.exposeString('meterId', { nullable: true }),
    quantity: t.float({ resolve: (line) => line.quantity.toNumber() }),
    unitAmount: t.string({ extensions: amountOutput, resolve: (line) => formatAmount(line.unitAmount, line.currency) }),
    amount: t.string({ extensions: amountOutput, resolve: (line) => formatAmount(line.amount, line.currency) }),
  }),
})

export const InvoiceNode = builder.prismaNode('Invoice', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    subscriptionId: t.exposeString('subscriptionId'),
    status: t.expose('status', { type: InvoiceStatusEnum }),
    currency: t.expose('currency', { type: CurrencyEnum }),
    amountDue: t.string({ description: 'Major units.', extensions: amountOutput, resolve: (invoice) => formatAmount(invoice.amountDue, invoice.currency) }),
    amountPaid: t.string({ extensions: amountOutput, resolve: (invoice) => formatAmount(invoice.amountPaid, invoice.currency) }),
    total: t.string({ extensions: amountOutput, resolve: (invoice) => formatAmount(invoice.total, invoice.currency) }),
    paymentMethod: t.expose('paymentMethod', { type: PaymentMethodEnum }),
    periodStart: t.expose('periodStart', { type: 'DateTime' }),
    periodEnd: t.expose('periodEnd', { type: 'DateTime' }),
    dueDate: t.expose('dueDate', { type: 'DateTime' }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    paymentUrl: t.string({
      nullable: true,
      description: 'The hosted page where an open invoice is paid.',
      resolve: (invoice, _args, context) => (invoice.status === 'open' ? `${context.services.publicUrl}/invoices/${invoice.id}` : null),
    }),
    payment: t.field({
      type: PaymentInstructions,
      nullable: true,
      description: 'How to pay it (CONTRACT §9); null until instructions exist.',
      resolve: (invoice, _args, context) => loadInvoicePayment(invoice, context),
    }),
    lines: t.field({
      type: [InvoiceLineType],
      resolve: async (invoice, _args, context) => {
        // The lines of every invoice in the response come from one query.
        const loader = requestLoader<string, InvoiceLine[]>(context, 'invoice.lines', async (invoiceIds) => {
          const lines = await context.db.invoiceLine.findMany({ where: { invoiceId: { in: [...invoiceIds] } }, orderBy: [{ invoiceId: 'asc' }, { position: 'asc' }] })
          return invoiceIds.map((id) => lines.filter((line) => line.invoiceId === id))
        })
        return (await loader.load(invoice.id)).map((line) => ({ ...line, currency: invoice.currency }))
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const InvoiceConnection = builder.connectionObject({ type: InvoiceNode, name: 'InvoiceConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'InvoiceEdge' })

const InvoiceOrder = orderByInput('InvoiceOrder', { CREATED_AT: 'createdAt', AMOUNT_DUE: 'amountDue', DUE_DATE: 'dueDate' })

/** The filters and order of every invoice list (the top-level one adds customerId). */
export const invoiceListArguments = builder.args((t) => ({
  ...pageArguments,
  first: t.int({ required: false, description: `Page size from the start of the range: ${invoicePageSize.minSize} to ${invoicePageSize.maxSize}, default ${invoicePageSize.defaultSize}.`, extensions: pageSize(invoicePageSize) }),
  status: t.field({ type: InvoiceStatusEnum, required: false }),
  currency: t.field({ type: CurrencyEnum, required: false }),
  subscriptionId: t.id({ required: false }),
  createdAt: t.field({ type: TimeRangeInput, required: false }),
  orderBy: t.field({ type: InvoiceOrder, required: false, description: 'Default: newest first.' }),
}))

export function invoiceFilter(args: { status?: string | null; currency?: string | null; subscriptionId?: string | number | null; createdAt?: InvoiceFilter['createdAt'] }): InvoiceFilter {
  return { status: args.status, currency: args.currency, subscriptionId: args.subscriptionId == null ? null : String(args.subscriptionId), createdAt: args.createdAt }
}

builder.queryFields((t) => ({
  invoice: t.field({
    type: InvoiceNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getInvoice(requireCaller(context), String(args.id), 'id'),
  }),
  invoices: t.field({
    type: InvoiceConnection,
    description: 'Invoices, newest first (first: 1 to 1000, default 100).',
    scopes: ['read'],
    args: { ...invoiceListArguments, customerId: t.arg.id({ required: false }) },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'invoices',
        definition: invoiceList,
        filter: { ...invoiceFilter(args), customerId: args.customerId == null ? null : String(args.customerId) },
        order: readOrder(args.orderBy),
        args,
        limits: invoicePageSize,
      }),
  }),
}))

builder.mutationFields((t) => ({
  payInvoiceForTesting: t.field({
    type: InvoiceNode,
    description: 'Sandbox helper (test accounts only). A successful payment attempt.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => {
      const domain = requireCaller(context)
      requireTestAccount(domain)
      return settleInvoicePayment(domain, String(args.id), 'succeeded')
    },
  }),
  failInvoiceForTesting: t.field({
    type: InvoiceNode,
    description: 'Sandbox helper (test accounts only). A failed payment attempt.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => {
      const domain = requireCaller(context)
      requireTestAccount(domain)
      return settleInvoicePayment(domain, String(args.id), 'failed')
    },
  }),
}))
