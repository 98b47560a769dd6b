import { formatAmount } from '../../domain/money'
import { getTransaction } from '../../transactions/getTransaction'
import { refundTransaction } from '../../transactions/refundTransaction'
import { transactionList, type TransactionFilter } from '../../transactions/transactionList'
import { builder } from '../builder'
import { amountInput, amountOutput } from '../jsonSchemaExtensions'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
import { CurrencyEnum, TransactionStatusEnum } from './enums'

export const TransactionNode = builder.prismaNode('Transaction', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    checkoutId: t.exposeString('checkoutId', { nullable: true, description: 'The checkout session that produced it.' }),
    invoiceId: t.exposeString('invoiceId', { nullable: true, description: 'The invoice this payment attempt was for (extension).' }),
    status: t.expose('status', { type: TransactionStatusEnum }),
    amount: t.string({ extensions: amountOutput, resolve: (transaction) => formatAmount(transaction.amount, transaction.currency) }),
    amountRefunded: t.string({
      description: 'What the provider confirmed refunding (extension); the status becomes refunded when it equals amount.',
      extensions: amountOutput,
      resolve: (transaction) => formatAmount(transaction.amountRefunded, transaction.currency),
    }),
    currency: t.expose('currency', { type: CurrencyEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const TransactionConnection = builder.connectionObject({ type: TransactionNode, name: 'TransactionConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'TransactionEdge' })

const TransactionOrder = orderByInput('TransactionOrder', { CREATED_AT: 'createdAt', AMOUNT: 'amount' })

/** The filters and order of every transaction list (the top-level one adds customerId). */
export const transactionListArguments = builder.args((t) => ({
  ...pageArguments,
  status: t.field({ type: TransactionStatusEnum, required: false }),
  currency: t.field({ type: CurrencyEnum, required: false }),
  invoiceId: t.id({ required: false }),
  createdAt: t.field({ type: TimeRangeInput, required: false }),
  orderBy: t.field({ type: TransactionOrder, required: false, description: 'Default: newest first.' }),
}))

export function transactionFilter(args: { status?: string | null; currency?: string | null; invoiceId?: string | number | null; createdAt?: TransactionFilter['createdAt'] }): TransactionFilter {
  return { status: args.status, currency: args.currency, invoiceId: args.invoiceId == null ? null : String(args.invoiceId), createdAt: args.createdAt }
}

builder.queryFields((t) => ({
  transaction: t.field({
    type: TransactionNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getTransaction(requireCaller(context), String(args.id), 'id'),
  }),
  transactions: t.field({
    type: TransactionConnection,
    description: 'Transactions, newest first (first: 1 to 500, default 100).',
    scopes: ['read'],
    args: { ...transactionListArguments, customerId: t.arg.id({ required: false }) },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'transactions',
        definition: transactionList,
        filter: { ...transactionFilter(args), customerId: args.customerId == null ? null : String(args.customerId) },
        order: readOrder(args.orderBy),
        args,
      }),
  }),
}))

const RefundTransactionInput = builder.inputType('RefundTransactionInput', {
  fields: (t) => ({ amount: t.string({ required: false, description: 'Major units; default: everything still refundable.', extensions: amountInput }) }),
})

builder.mutationField('refundTransaction', (t) =>
  t.field({
    type: TransactionNode,
    description: 'Ask the provider to refund a succeeded transaction (extension, CONTRACT §9): by default all not yet refunded or asked for. Counted in amountRefunded once the provider confirms.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: RefundTransactionInput, required: false }) },
    resolve: (_root, args, context) => refundTransaction(requireCaller(context), String(args.id), args.input?.amount),
  }),
)
