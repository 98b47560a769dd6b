import type { CheckoutSession, Invoice, PixCharge, PixRecurringCharge, Subscription } from '../../generated/prisma/client'
import {
  pixAutomaticoPaymentInstructions,
  pixPaymentInstructions,
  type PixAutomaticoPaymentInstructionsValue,
  type PixPaymentInstructionsValue,
} from '../../payments/pix/pixPaymentInstructions'
import { readUsdcPaymentInstructions, type UsdcInstructions, type UsdcPaymentInstructions, type UsdcPullPaymentInstructions } from '../../payments/usdc/readUsdcPaymentInstructions'
import { builder } from '../builder'
import { amountOutput } from '../jsonSchemaExtensions'
import type { GraphQLContext } from '../GraphQLContext'
import { requestLoader } from '../requestLoader'

// CONTRACT §9: how to pay a checkout session or an invoice, null until instructions exist. One union
// for every rail; REST returns the same object without __typename.

// usdc_pull invoices: the payer approves the signer once, later periods are pulled (CONTRACT §9.2).
const approveSpenderDescription = 'usdc_pull invoices: the signer to `approve` on the token, so later periods are collected by transferFrom.'
const approveAmountDescription = 'A suggested allowance (major units): twelve periods of this amount. Each period pulls what it is due.'

const UsdcPaymentInstructionsType = builder.objectRef<UsdcPaymentInstructions>('UsdcPaymentInstructions').implement({
  description: 'Send exactly `amount` of the token to `address` on chain `chainId`.',
  fields: (t) => ({
    rail: t.exposeString('rail'),
    chainId: t.exposeInt('chainId'),
    token: t.exposeString('token'),
    address: t.exposeString('address', { description: 'A deposit address of this payable alone (EIP-55).' }),
    amount: t.exposeString('amount', { extensions: amountOutput }),
    amountReceived: t.exposeString('amountReceived', { description: 'Confirmed transfers to the address.', extensions: amountOutput }),
    approveSpender: t.exposeString('approveSpender', { nullable: true, description: approveSpenderDescription }),
    approveAmount: t.exposeString('approveAmount', { nullable: true, description: approveAmountDescription, extensions: amountOutput }),
  }),
})

const UsdcPullPaymentInstructionsType = builder.objectRef<UsdcPullPaymentInstructions>('UsdcPullPaymentInstructions').implement({
  description: 'Collected by the signer\'s transferFrom from `payer` (usdc_pull renewals).',
  fields: (t) => ({
    rail: t.exposeString('rail'),
    chainId: t.exposeInt('chainId'),
    token: t.exposeString('token'),
    payer: t.exposeString('payer'),
    amountReceived: t.exposeString('amountReceived', { description: 'What the confirmed pull collected.', extensions: amountOutput }),
    approveSpender: t.exposeString('approveSpender', { nullable: true, description: approveSpenderDescription }),
    approveAmount: t.exposeString('approveAmount', { nullable: true, description: approveAmountDescription, extensions: amountOutput }),
  }),
})

const PixPaymentInstructionsType = builder.objectRef<PixPaymentInstructionsValue>('PixPaymentInstructions').implement({
  description: 'Pay by PIX: the dynamic BR Code of the charge (cob) at the account\'s PSP.',
  fields: (t) => ({
    rail: t.exposeString('rail', { description: 'Always `pix`.' }),
    txid: t.exposeString('txid', { description: 'The charge\'s id at the PSP (26–35 letters and digits).' }),
    pixCopiaECola: t.exposeString('pixCopiaECola', { description: 'The BR Code ("copia e cola"); its QR code is the same text.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the charge stops being payable.' }),
    amountReceived: t.exposeString('amountReceived', { description: 'What the PSP confirmed receiving (major units); below what is due settles nothing.', extensions: amountOutput }),
  }),
})

const PixAutomaticoPaymentInstructionsType = builder.objectRef<PixAutomaticoPaymentInstructionsValue>('PixAutomaticoPaymentInstructions').implement({
  description: 'Charged by the payer\'s bank through the Pix Automático recurrence the payer authorized (a recurring charge, cobr): nothing to scan.',
  fields: (t) => ({
    rail: t.exposeString('rail', { description: 'Always `pix_automatico`.' }),
    txid: t.exposeString('txid', { description: 'The recurring charge\'s id at the PSP.' }),
    recurrenceId: t.exposeString('recurrenceId', { description: 'The recurrence (idRec) that authorizes it.' }),
    dueDate: t.exposeString('dueDate', { description: 'The day (YYYY-MM-DD, São Paulo) the payer\'s bank settles it; retries follow within 7 days.' }),
    status: t.exposeString('status', { description: 'The PSP\'s status: CRIADA, ATIVA, CONCLUIDA, EXPIRADA, REJEITADA or CANCELADA.' }),
    amountReceived: t.exposeString('amountReceived', { extensions: amountOutput }),
  }),
})

type Instructions = UsdcInstructions | PixPaymentInstructionsValue | PixAutomaticoPaymentInstructionsValue

export const PaymentInstructions = builder.unionType('PaymentInstructions', {
  types: [PixPaymentInstructionsType, PixAutomaticoPaymentInstructionsType, UsdcPaymentInstructionsType, UsdcPullPaymentInstructionsType],
  resolveType: (instructions) =>
    instructions.rail === 'pix'
      ? PixPaymentInstructionsType
      : instructions.rail === 'pix_automatico'
        ? PixAutomaticoPaymentInstructionsType
        : instructions.rail === 'usdc'
          ? UsdcPaymentInstructionsType
          : UsdcPullPaymentInstructionsType,
})

/** The PIX charge of each BRL resource in the response, read in one query per kind. */
async function loadPixPayment(context: GraphQLContext, kind: 'checkoutSessionId' | 'invoiceId', id: string): Promise<PixPaymentInstructionsValue | null> {
  const loader = requestLoader<string, PixCharge | null>(context, `payment.pix.${kind}`, async (ids) => {
    const charges = await context.db.pixCharge.findMany({ where: { [kind]: { in: [...ids] } } })
    return ids.map((candidate) => charges.find((charge) => charge[kind] === candidate) ?? null)
  })
  const charge = await loader.load(id)
  return charge ? pixPaymentInstructions(charge) : null
}

export function loadCheckoutPayment(session: CheckoutSession, context: GraphQLContext): Promise<Instructions | null> {
  if (session.currency === 'BRL') return loadPixPayment(context, 'checkoutSessionId', session.id)
  if (session.currency !== 'USDC') return Promise.resolve(null)
  const loader = requestLoader<CheckoutSession, UsdcInstructions | null>(context, 'checkout.payment', (sessions) =>
    readUsdcPaymentInstructions(context.db, sessions.map((item) => ({ kind: 'checkout', id: item.id, amountDue: item.amount }))),
  )
  return loader.load(session)
}

/** A cob (first invoice's composite code, or the fallback after a final rejection) first, else the recurring charge. */
async function loadBrlInvoicePayment(context: GraphQLContext, invoice: Invoice): Promise<Instructions | null> {
  const charge = await loadPixPayment(context, 'invoiceId', invoice.id)
  if (charge || invoice.paymentMethod !== 'pix_auto') return charge
  const loader = requestLoader<string, PixRecurringCharge | null>(context, 'payment.pixAutomatico', async (ids) => {
    const charges = await context.db.pixRecurringCharge.findMany({ where: { invoiceId: { in: [...ids] } } })
    return ids.map((candidate) => charges.find((item) => item.invoiceId === candidate) ?? null)
  })
  const recurring = await loader.load(invoice.id)
  return recurring ? pixAutomaticoPaymentInstructions(recurring) : null
}

export function loadInvoicePayment(invoice: Invoice, context: GraphQLContext): Promise<Instructions | null> {
  if (invoice.currency === 'BRL') return loadBrlInvoicePayment(context, invoice)
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
