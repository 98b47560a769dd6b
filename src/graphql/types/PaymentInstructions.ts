import type { CheckoutSession, Invoice, Subscription } from '../../generated/prisma/client'
import { readUsdcPaymentInstructions, type UsdcInstructions, type UsdcPaymentInstructions, type UsdcPullPaymentInstructions } from '../../payments/usdc/readUsdcPaymentInstructions'
import { builder } from '../builder'
import type { GraphQLContext } from '../GraphQLContext'
import { requestLoader } from '../requestLoader'

// CONTRACT §9: how to pay a checkout session or an invoice, null until instructions exist. One union
// for every rail; REST returns the same object without __typename.

const UsdcPaymentInstructionsType = builder.objectRef<UsdcPaymentInstructions>('UsdcPaymentInstructions').implement({
  description: 'Send exactly `amount` of the token to `address` on chain `chainId`.',
  fields: (t) => ({
    rail: t.exposeString('rail'),
    chainId: t.exposeInt('chainId'),
    token: t.exposeString('token'),
    address: t.exposeString('address', { description: 'A deposit address of this payable alone (EIP-55).' }),
    amount: t.exposeString('amount'),
    amountReceived: t.exposeString('amountReceived', { description: 'Confirmed transfers to the address.' }),
  }),
})

const UsdcPullPaymentInstructionsType = builder.objectRef<UsdcPullPaymentInstructions>('UsdcPullPaymentInstructions').implement({
  description: 'Collected by the signer\'s transferFrom from `payer` (usdc_pull renewals).',
  fields: (t) => ({
    rail: t.exposeString('rail'),
    chainId: t.exposeInt('chainId'),
    token: t.exposeString('token'),
    payer: t.exposeString('payer'),
    amountReceived: t.exposeString('amountReceived'),
  }),
})

export const PaymentInstructions = builder.unionType('PaymentInstructions', {
  types: [UsdcPaymentInstructionsType, UsdcPullPaymentInstructionsType],
  resolveType: (instructions) => (instructions.rail === 'usdc' ? UsdcPaymentInstructionsType : UsdcPullPaymentInstructionsType),
})

export function loadCheckoutPayment(session: CheckoutSession, context: GraphQLContext): Promise<UsdcInstructions | null> {
  if (session.currency !== 'USDC') return Promise.resolve(null)
  const loader = requestLoader<CheckoutSession, UsdcInstructions | null>(context, 'checkout.payment', (sessions) =>
    readUsdcPaymentInstructions(context.db, sessions.map((item) => ({ kind: 'checkout', id: item.id, amountDue: item.amount }))),
  )
  return loader.load(session)
}

export function loadInvoicePayment(invoice: Invoice, context: GraphQLContext): Promise<UsdcInstructions | null> {
  if (invoice.currency !== 'USDC') return Promise.resolve(null)
  const loader = requestLoader<Invoice, UsdcInstructions | null>(context, 'invoice.payment', async (invoices) => {
    const pulled = invoices.filter((item) => item.paymentMethod === 'usdc_pull')
    const subscriptions: Subscription[] = pulled.length === 0 ? [] : await context.db.subscription.findMany({ where: { id: { in: pulled.map((item) => item.subscriptionId) } } })
    return readUsdcPaymentInstructions(
      context.db,
      invoices.map((item) => {
        const subscription = subscriptions.find((candidate) => candidate.id === item.subscriptionId)
        return {
          kind: 'invoice',
          id: item.id,
          amountDue: item.amountDue,
          amountPaid: item.amountPaid,
          pullPayer: subscription ? { accountId: subscription.accountId, payer: subscription.usdcPayer } : null,
        }
      }),
    )
  })
  return loader.load(invoice)
}
