import { getCustomer } from '../customers/getCustomer'
import { getProduct } from '../catalog/getProduct'
import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { parseAmount, requirePayableByPix, type Currency } from '../domain/money'
import { validateMetadata } from '../domain/validateMetadata'
import { Prisma, type CheckoutMode, type CheckoutSession, type Customer } from '../generated/prisma/client'
import { allocateDepositAddress } from '../payments/usdc/allocateDepositAddress'
import { createPixCharge } from '../payments/pix/createPixCharge'
import { requirePixProvider } from '../payments/pix/requirePixProvider'
import { requireUsdcProvider } from '../payments/usdc/requireUsdcProvider'
import { checkoutLifetimeMilliseconds } from './checkoutRules'

export interface CreateCheckoutSessionInput {
  mode: CheckoutMode
  customerId?: string | null
  externalCustomerId?: string | null
  productId?: string | null
  amount?: string | null
  currency?: Currency | null
  successUrl?: string | null
  cancelUrl?: string | null
  metadata?: Record<string, unknown> | null
}

export async function createCheckoutSession(context: DomainContext, input: CreateCheckoutSessionInput): Promise<CheckoutSession> {
  const metadata = input.metadata == null ? undefined : validateMetadata(input.metadata)
  const successUrl = input.successUrl == null ? null : validateUrl(input.successUrl, 'successUrl')
  const cancelUrl = input.cancelUrl == null ? null : validateUrl(input.cancelUrl, 'cancelUrl')
  return inTransaction(context, async (transaction) => {
    const customer = await resolveCustomer(transaction, input)
    const purchase = await resolvePurchase(transaction, input)
    const usdcProvider = purchase.currency === 'USDC' ? await requireUsdcProvider(transaction, 'currency') : null
    requirePayableByPix(purchase.amount, purchase.currency, input.mode === 'credits' ? 'amount' : 'productId', 'Checkouts')
    const pixProvider = purchase.currency === 'BRL' ? await requirePixProvider(transaction, 'currency') : null
    const now = transaction.clock.now()
    const session = await transaction.db.checkoutSession.create({
      data: {
        id: createId('CheckoutSession'),
        accountId: transaction.account.id,
        mode: input.mode,
        status: 'open',
        customerId: customer.id,
        productId: purchase.productId,
        priceId: purchase.priceId,
        amount: purchase.amount,
        currency: purchase.currency,
        successUrl,
        cancelUrl,
        metadata: metadata as object,
        expiresAt: new Date(now.getTime() + checkoutLifetimeMilliseconds),
        createdAt: now,
      },
    })
    if (usdcProvider) await allocateDepositAddress(transaction.db, transaction.account.id, { checkoutSessionId: session.id })
    // A zero-amount session has nothing to collect; any other BRL session gets its charge before it commits.
    if (pixProvider && !session.amount.isZero()) {
      await createPixCharge(transaction, pixProvider, {
        checkoutSessionId: session.id,
        amount: session.amount,
        expiresAt: session.expiresAt,
        description: `Checkout ${session.id}`,
      })
    }
    return session
  })
}

async function resolveCustomer(context: DomainContext, input: CreateCheckoutSessionInput): Promise<Customer> {
  if (input.customerId != null) return getCustomer(context, input.customerId)
  if (input.externalCustomerId != null) {
    const customer = await context.db.customer.findUnique({
      where: { accountId_externalId: { accountId: context.account.id, externalId: input.externalCustomerId } },
    })
    if (!customer) throw new DomainError('customer_not_found', 'No customer with this externalId', { param: 'externalCustomerId' })
    return customer
  }
  throw new DomainError('validation_error', 'customerId or externalCustomerId is required', { param: 'customerId' })
}

async function resolvePurchase(context: DomainContext, input: CreateCheckoutSessionInput) {
  if (input.mode === 'credits') {
    if (input.productId != null) throw new DomainError('validation_error', 'mode credits buys an amount, not a product', { param: 'productId' })
    if (input.amount == null) throw new DomainError('validation_error', 'amount is required for mode credits', { param: 'amount' })
    if (input.currency == null) throw new DomainError('validation_error', 'currency is required when amount is set', { param: 'currency' })
    const amount = parseAmount(input.amount, input.currency, 'amount')
    if (amount.isZero()) throw new DomainError('validation_error', 'amount must be greater than zero', { param: 'amount' })
    return { productId: null, priceId: null, amount, currency: input.currency }
  }
  if (input.productId == null) throw new DomainError('validation_error', `productId is required for mode ${input.mode}`, { param: 'productId' })
  if (input.amount != null || input.currency != null) {
    throw new DomainError('validation_error', `mode ${input.mode} charges the product's price; omit amount and currency`, { param: input.amount != null ? 'amount' : 'currency' })
  }
  const product = await getProduct(context, input.productId)
  if (product.status !== 'active') throw new DomainError('invalid_state', 'This product is archived', { param: 'productId' })
  const price = product.defaultPriceId ? await context.db.price.findUnique({ where: { id: product.defaultPriceId } }) : null
  if (!price || !price.active) throw new DomainError('invalid_state', 'This product has no active default price', { param: 'productId' })
  const sells = input.mode === 'payment'
    ? (product.type === 'one_time' || product.type === 'credit_pack') && price.model === 'one_time'
    : price.model === 'subscription' || (price.model === 'metered' && price.usageBillingMode === 'subscription')
  if (!sells) {
    const what = input.mode === 'payment' ? 'one_time and credit_pack products' : 'products whose default price is a subscription price'
    throw new DomainError('validation_error', `mode ${input.mode} sells ${what}`, { param: 'productId' })
  }
  // A subscription checkout charges the first period's fee (nothing for usage-only prices).
  const amount = price.model === 'metered' ? new Prisma.Decimal(0) : price.amount
  return { productId: product.id, priceId: price.id, amount, currency: price.currency }
}

/**
 * A URL the payer's browser is sent to after paying (a Location header). The WHATWG parser silently
 * drops tabs and line breaks and trims spaces and controls, so a URL is judged by what it normalises
 * to: text that would change other than by encoding (controls, whitespace) is refused, and the
 * normalised form, ASCII only and therefore always a valid header value, is what is stored.
 */
function validateUrl(text: string, param: string): string {
  if (/[\p{Cc}\s]/u.test(text)) {
    throw new DomainError('validation_error', `${param} may not contain spaces, line breaks or control characters`, { param })
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new DomainError('validation_error', `${param} must be an absolute URL`, { param })
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.href.length > 2000) {
    throw new DomainError('validation_error', `${param} must be an http(s) URL of at most 2000 characters`, { param })
  }
  return url.href
}
