import { formatAmount } from '../../domain/money'
import { getTransaction } from '../../transactions/getTransaction'
import { refundTransaction } from '../../transactions/refundTransaction'
import { listTransactions } from '../../transactions/listTransactions'
import { builder } from '../builder'
import { resolveConnection } from '../connections'
import { forwardConnectionArgs } from '../forwardConnectionArgs'
import { authorize } from '../GraphQLContext'
import { CurrencyEnum, TransactionStatusEnum } from './enums'

export const TransactionNode = builder.prismaNode('Transaction', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    checkoutId: t.exposeString('checkoutId', { nullable: true, description: 'The checkout session that produced it.' }),
    invoiceId: t.exposeString('invoiceId', { nullable: true, description: 'The invoice this payment attempt was for (extension).' }),
    status: t.expose('status', { type: TransactionStatusEnum }),
    amount: t.string({ resolve: (transaction) => formatAmount(transaction.amount, transaction.currency) }),
    amountRefunded: t.string({
      description: 'What the provider confirmed refunding (extension); the status becomes refunded when it equals amount.',
      resolve: (transaction) => formatAmount(transaction.amountRefunded, transaction.currency),
    }),
    currency: t.expose('currency', { type: CurrencyEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const TransactionConnection = builder.connectionObject({ type: TransactionNode, name: 'TransactionConnection' }, { name: 'TransactionEdge' })

builder.queryFields((t) => ({
  transaction: t.field({
    type: TransactionNode,
    description: 'Scope: read.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getTransaction(authorize(context, ['read']), String(args.id), 'id'),
  }),
  transactions: t.field({
    type: TransactionConnection,
    description: 'Transactions, newest first (first: 1 to 500, default 100). Scope: read.',
    args: { ...forwardConnectionArgs, customerId: t.arg.string({ required: false }) },
    resolve: (_root, args, context) => resolveConnection(context, ['read'], 'transactions', args, (domain, page) => listTransactions(domain, args, page)),
  }),
}))

const RefundTransactionInput = builder.inputType('RefundTransactionInput', {
  fields: (t) => ({ amount: t.string({ required: false, description: 'Major units; default: everything still refundable.' }) }),
})

builder.mutationField('refundTransaction', (t) =>
  t.field({
    type: TransactionNode,
    description: 'Ask the provider to refund a succeeded transaction (extension, CONTRACT §9): by default all not yet refunded or asked for. Counted in amountRefunded once the provider confirms. Scope: write.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: RefundTransactionInput, required: false }) },
    resolve: (_root, args, context) => refundTransaction(authorize(context, ['write']), String(args.id), args.input?.amount),
  }),
)
