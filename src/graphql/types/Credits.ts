import { getCreditBalance } from '../../credits/getCreditBalance'
import { creditLedgerList, type CreditLedgerFilter } from '../../credits/creditLedgerList'
import type { CreditBalanceView } from '../../credits/getCreditBalance'
import { formatAmount } from '../../domain/money'
import { builder } from '../builder'
import { signedAmountOutput } from '../jsonSchemaExtensions'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
import { CurrencyEnum, LedgerEntryKindEnum } from './enums'

export const CreditBalanceType = builder.objectRef<CreditBalanceView>('CreditBalance').implement({
  description: 'Always equal to the sum of the customer\'s ledger entries in this currency.',
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    currency: t.expose('currency', { type: CurrencyEnum }),
    balance: t.string({ extensions: signedAmountOutput, resolve: (view) => formatAmount(view.balance, view.currency) }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
  }),
})

export const CreditLedgerEntryNode = builder.prismaNode('CreditLedgerEntry', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ id, accountId: context.caller?.account.id ?? '' }),
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    currency: t.expose('currency', { type: CurrencyEnum }),
    amount: t.string({ description: 'Signed: grants are positive, debits negative.', extensions: signedAmountOutput, resolve: (entry) => formatAmount(entry.amount, entry.currency) }),
    kind: t.expose('kind', { type: LedgerEntryKindEnum }),
    description: t.exposeString('description'),
    usageEventId: t.exposeString('usageEventId', { nullable: true }),
    checkoutSessionId: t.exposeString('checkoutSessionId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const CreditLedgerConnection = builder.connectionObject({ type: CreditLedgerEntryNode, name: 'CreditLedgerConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'CreditLedgerEdge' })

const CreditLedgerOrder = orderByInput('CreditLedgerOrder', { CREATED_AT: 'createdAt' })

/** The filters and order of every ledger list (the top-level one adds customerId). */
export const creditLedgerListArguments = builder.args((t) => ({
  ...pageArguments,
  currency: t.field({ type: CurrencyEnum, required: false }),
  kind: t.field({ type: LedgerEntryKindEnum, required: false }),
  createdAt: t.field({ type: TimeRangeInput, required: false }),
  orderBy: t.field({ type: CreditLedgerOrder, required: false, description: 'Default: newest first.' }),
}))

export function creditLedgerFilter(args: { currency?: string | null; kind?: string | null; createdAt?: CreditLedgerFilter['createdAt'] }): CreditLedgerFilter {
  return { currency: args.currency, kind: args.kind, createdAt: args.createdAt }
}

builder.queryFields((t) => ({
  creditBalance: t.field({
    type: CreditBalanceType,
    scopes: ['read'],
    args: { customerId: t.arg.id({ required: true }), currency: t.arg({ type: CurrencyEnum, required: false, defaultValue: 'USDC' }) },
    resolve: (_root, args, context) => getCreditBalance(requireCaller(context), String(args.customerId), args.currency ?? 'USDC'),
  }),
  creditLedger: t.field({
    type: CreditLedgerConnection,
    description: 'A customer\'s credit ledger, newest first.',
    scopes: ['read'],
    args: { ...creditLedgerListArguments, customerId: t.arg.id({ required: true }) },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'creditLedger',
        definition: creditLedgerList,
        filter: { ...creditLedgerFilter(args), customerId: String(args.customerId) },
        order: readOrder(args.orderBy),
        args,
      }),
  }),
}))
