import { cancelCheckoutSession } from '../../checkout/cancelCheckoutSession'
import { effectiveStatus } from '../../checkout/checkoutRules'
import { createCheckoutSession } from '../../checkout/createCheckoutSession'
import { getCheckoutSession } from '../../checkout/getCheckoutSession'
import { payCheckoutSession } from '../../checkout/payCheckoutSession'
import { checkoutUrl } from '../../checkout/paymentLinks'
import { formatAmount } from '../../domain/money'
import { requireTestAccount } from '../../domain/requireTestAccount'
import { builder } from '../builder'
import { amountInput, amountOutput, metadataInput } from '../jsonSchemaExtensions'
import { requireCaller } from '../GraphQLContext'
import { loadCheckoutPayment, PaymentInstructions } from './PaymentInstructions'
import { CheckoutModeEnum, CheckoutStatusEnum, CurrencyEnum } from './enums'

export const CheckoutSessionNode = builder.prismaNode('CheckoutSession', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    mode: t.expose('mode', { type: CheckoutModeEnum }),
    status: t.field({
      type: CheckoutStatusEnum,
      description: 'An open session past expiresAt is expired.',
      resolve: (session, _args, context) => effectiveStatus(session, context.clock.now()),
    }),
    customerId: t.exposeString('customerId'),
    productId: t.exposeString('productId', { nullable: true }),
    priceId: t.exposeString('priceId', { nullable: true }),
    amount: t.string({ extensions: amountOutput, resolve: (session) => formatAmount(session.amount, session.currency) }),
    currency: t.expose('currency', { type: CurrencyEnum }),
    url: t.string({ description: 'The hosted payment page.', resolve: (session, _args, context) => checkoutUrl(context.services.publicUrl, session.id) }),
    successUrl: t.exposeString('successUrl', { nullable: true }),
    cancelUrl: t.exposeString('cancelUrl', { nullable: true }),
    metadata: t.expose('metadata', { type: 'JSONObject', nullable: true }),
    subscriptionId: t.exposeString('subscriptionId', { nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payment: t.field({
      type: PaymentInstructions,
      nullable: true,
      description: 'How to pay it (CONTRACT §9); null until instructions exist.',
      resolve: (session, _args, context) => loadCheckoutPayment(session, context),
    }),
  }),
})

builder.queryField('checkoutSession', (t) =>
  t.field({
    type: CheckoutSessionNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getCheckoutSession(requireCaller(context), String(args.id), 'id'),
  }),
)

const CreateCheckoutSessionInput = builder.inputType('CreateCheckoutSessionInput', {
  fields: (t) => ({
    mode: t.field({ type: CheckoutModeEnum, required: true }),
    customerId: t.id({ required: false, description: 'Required when externalCustomerId is absent.' }),
    externalCustomerId: t.string({ required: false }),
    productId: t.id({ required: false, description: 'Required for modes payment and subscription.' }),
    amount: t.string({ required: false, description: 'Required for mode credits: the credits bought, in major units.', extensions: amountInput }),
    currency: t.field({ type: CurrencyEnum, required: false, description: 'Required when amount is set.' }),
    successUrl: t.string({ required: false }),
    cancelUrl: t.string({ required: false }),
    metadata: t.field({ type: 'JSONObject', required: false, extensions: metadataInput }),
  }),
})

builder.mutationFields((t) => ({
  createCheckoutSession: t.field({
    type: CheckoutSessionNode,
    description: 'Open for 24 hours.',
    scopes: ['write', 'checkout:write'],
    args: { input: t.arg({ type: CreateCheckoutSessionInput, required: true }) },
    resolve: (_root, args, context) => createCheckoutSession(requireCaller(context), args.input),
  }),
  cancelCheckoutSession: t.field({
    type: CheckoutSessionNode,
    description: 'Only an open session can be canceled.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => cancelCheckoutSession(requireCaller(context), String(args.id)),
  }),
  payCheckoutSessionForTesting: t.field({
    type: CheckoutSessionNode,
    description: 'Sandbox helper (test accounts only). Settles the session as the payment rail would.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => {
      const domain = requireCaller(context)
      requireTestAccount(domain)
      return payCheckoutSession(domain, String(args.id))
    },
  }),
}))
