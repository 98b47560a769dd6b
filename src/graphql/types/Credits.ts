import { getCreditBalance } from '../../credits/getCreditBalance'
import { listCreditLedger } from '../../credits/listCreditLedger'
import type { CreditBalanceView } from '../../credits/getCreditBalance'
import { formatAmount } from '../../domain/money'
import { builder } from '../builder'
import { resolveConnection } from '../connections'
import { forwardConnectionArgs } from '../forwardConnectionArgs'
import { authorize } from '../GraphQLContext'
import { CurrencyEnum, LedgerEntryKindEnum } from './enums'

export const CreditBalanceType = builder.objectRef<CreditBalanceView>('CreditBalance').implement({
  description: 'Always equal to the sum of the customer\'s ledger entries in this currency.',
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    currency: t.expose('currency', { type: CurrencyEnum }),
    balance: t.string({ resolve: (view) => formatAmount(view.balance, view.currency) }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
  }),
})

export const CreditLedgerEntryNode = builder.prismaNode('CreditLedgerEntry', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ id, accountId: context.caller?.account.id ?? '' }),
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    currency: t.expose('currency', { type: CurrencyEnum }),
    amount: t.string({ description: 'Signed: grants are positive, debits negative.', resolve: (entry) => formatAmount(entry.amount, entry.currency) }),
    kind: t.expose('kind', { type: LedgerEntryKindEnum }),
    description: t.exposeString('description'),
    usageEventId: t.exposeString('usageEventId', { nullable: true }),
    checkoutSessionId: t.exposeString('checkoutSessionId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
})

export const CreditLedgerConnection = builder.connectionObject({ type: CreditLedgerEntryNode, name: 'CreditLedgerConnection' }, { name: 'CreditLedgerEdge' })

builder.queryFields((t) => ({
  creditBalance: t.field({
    type: CreditBalanceType,
    description: 'Scope: read.',
    args: { customerId: t.arg.string({ required: true }), currency: t.arg({ type: CurrencyEnum, required: false }) },
    resolve: (_root, args, context) => getCreditBalance(authorize(context, ['read']), args.customerId, args.currency ?? 'USDC'),
  }),
  creditLedger: t.field({
    type: CreditLedgerConnection,
    description: 'A customer\'s credit ledger, newest first. Scope: read.',
    args: { ...forwardConnectionArgs, customerId: t.arg.string({ required: true }), currency: t.arg({ type: CurrencyEnum, required: false }) },
    resolve: (_root, args, context) => resolveConnection(context, ['read'], 'creditLedger', args, (domain, page) => listCreditLedger(domain, args, page)),
  }),
}))
