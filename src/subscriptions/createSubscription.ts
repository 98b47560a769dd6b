import { recordEvent } from '../events/recordEvent'
import { getCustomer } from '../customers/getCustomer'
import { getProduct } from '../catalog/getProduct'
import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import type { Currency } from '../domain/money'
import { syncSubscriptionEntitlement } from '../entitlements/syncSubscriptionEntitlement'
import type { Invoice, PaymentMethod, Price, Product, Subscription } from '../generated/prisma/client'
import { collectInvoice } from '../invoices/collectInvoice'
import { issueInvoice } from '../invoices/issueInvoice'
import { requirePixProvider } from '../payments/pix/requirePixProvider'
import { requireUsdcProvider } from '../payments/usdc/requireUsdcProvider'
import { nextPeriodEnd } from './billingPeriods'
import { railsByCurrency } from './paymentRails'

export interface CreateSubscriptionInput {
  customerId: string
  productId: string
  paymentMethod?: PaymentMethod | null
}

export interface CreatedSubscription {
  subscription: Subscription
  firstInvoice: Invoice
}

/**
 * CONTRACT §6: a subscription bills its product's default price (model `subscription`, or `metered`
 * with usageBillingMode `subscription`: usage only, monthly periods) plus the product's other
 * subscription-mode metered prices. It starts `trialing` with its first invoice open and becomes
 * `active` when that invoice is paid (at once when it is zero). `paidUpFront` is for a subscription
 * bought through checkout: the first invoice is paid by that checkout's transaction.
 */
export async function createSubscription(
  context: DomainContext,
  input: CreateSubscriptionInput,
  options: { paidUpFront?: { transactionId: string } } = {},
): Promise<CreatedSubscription> {
  return inTransaction(context, async (transaction) => {
    const { db, account, clock } = transaction
    const customer = await getCustomer(transaction, input.customerId)
    const product = await getProduct(transaction, input.productId)
    const price = await billedPrice(transaction, product)
    const paymentMethod = await chooseRail(transaction, price.currency as Currency, input.paymentMethod ?? null)
    if (paymentMethod === 'pix_auto' && !options.paidUpFront && customer.taxId === null && (await db.pixProvider.findUnique({ where: { accountId: account.id }, select: { accountId: true } }))) {
      // Pix Automático names the payer (CPF/CNPJ) in the recurrence the payer's bank authorizes.
      throw new DomainError('tax_id_required', 'pix_auto needs the customer\'s taxId (CPF or CNPJ): set it on the customer first', { param: 'customerId' })
    }
    const now = clock.now()
    const interval = price.interval ?? 'month'
    const subscription = await db.subscription.create({
      data: {
        id: createId('Subscription'),
        accountId: account.id,
        customerId: customer.id,
        productId: product.id,
        priceId: price.id,
        status: 'trialing',
        paymentMethod,
        billingAnchor: now,
        currentPeriodStart: now,
        currentPeriodEnd: nextPeriodEnd(now, interval, now),
        createdAt: now,
      },
      include: { price: true, product: true },
    })
    const { invoice: issued } = await issueInvoice(transaction, {
      subscription,
      period: { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
      now,
    })
    // Bought through checkout: that checkout's payment pays the first invoice, nothing to collect.
    const invoice = options.paidUpFront ? issued : await collectInvoice(transaction, issued, 'open')
    let firstInvoice = invoice
    if (options.paidUpFront && invoice.status === 'open') {
      firstInvoice = await db.invoice.update({ where: { id: invoice.id }, data: { status: 'paid', amountPaid: invoice.total, paidAt: now } })
      await db.transaction.update({ where: { id: options.paidUpFront.transactionId }, data: { invoiceId: invoice.id } })
      await recordEvent(transaction, 'invoice.paid', firstInvoice)
    }
    if (firstInvoice.status !== 'paid') {
      await recordEvent(transaction, 'subscription.created', subscription)
      return { subscription: stripRelations(subscription), firstInvoice }
    }
    const active = await db.subscription.update({ where: { id: subscription.id }, data: { status: 'active' } })
    await recordEvent(transaction, 'subscription.created', active)
    await syncSubscriptionEntitlement(transaction, active, 'active', now, { createIfMissing: true })
    return { subscription: active, firstInvoice }
  })
}

async function billedPrice(context: DomainContext, product: Product): Promise<Price> {
  if (product.status !== 'active') throw new DomainError('invalid_state', 'This product is archived', { param: 'productId' })
  const price = product.defaultPriceId ? await context.db.price.findUnique({ where: { id: product.defaultPriceId } }) : null
  const subscribable = price && price.active && (price.model === 'subscription' || (price.model === 'metered' && price.usageBillingMode === 'subscription'))
  if (!price || !subscribable) {
    throw new DomainError('invalid_state', 'This product\'s default price is not a subscription price (or subscription-mode metered price)', { param: 'productId' })
  }
  return price
}

/** The rail asked for, if the account enabled it and it settles the price's currency; else the first enabled one that does. */
async function chooseRail(context: DomainContext, currency: Currency, requested: PaymentMethod | null): Promise<PaymentMethod> {
  const account = await context.db.account.findUniqueOrThrow({ where: { id: context.account.id } })
  if (currency === 'USDC') await requireUsdcProvider(context, 'paymentMethod')
  if (currency === 'BRL') await requirePixProvider(context, 'paymentMethod')
  const usable = railsByCurrency[currency].filter((rail) => account.enabledRails.includes(rail))
  if (requested !== null) {
    if (!usable.includes(requested)) {
      throw new DomainError('rail_not_available', `${requested} is not available for ${currency} prices on this account`, { param: 'paymentMethod' })
    }
    return requested
  }
  const rail = usable[0]
  if (!rail) throw new DomainError('rail_not_available', `This account has no payment rail enabled for ${currency}`, { param: 'paymentMethod' })
  return rail
}

function stripRelations(subscription: Subscription & { price: Price; product: Product }): Subscription {
  const { price: _price, product: _product, ...rest } = subscription
  return rest
}
