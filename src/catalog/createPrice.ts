import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { parseAmount, requirePayableByPix, type Currency } from '../domain/money'
import type { Price, PriceInterval, PriceModel, Product, UsageBillingMode } from '../generated/prisma/client'
import { getMeter } from '../metering/getMeter'
import { getProduct } from './getProduct'
import { modelsForProductType } from './productRules'

export interface PriceInput {
  amount: string
  currency: Currency
  model: PriceModel
  interval?: PriceInterval | null
  usageBillingMode?: UsageBillingMode | null
  meterId?: string | null
}

/**
 * Checks a price against its product and writes it. `param` prefixes field names in errors
 * (`defaultPrice.amount` when the price comes with a new product).
 */
export async function writePrice(context: DomainContext, product: Product, input: PriceInput, param = ''): Promise<Price> {
  const field = (name: string) => (param ? `${param}.${name}` : name)
  if (!modelsForProductType[product.type].includes(input.model)) {
    throw new DomainError('validation_error', `A ${product.type} product takes prices of model ${modelsForProductType[product.type].join(' or ')}`, {
      param: field('model'),
    })
  }
  const amount = parseAmount(input.amount, input.currency, field('amount'))
  // A one-time or subscription price is charged whole; metered and credits prices are per unit.
  if (chargedWhole(input.model)) requirePayableByPix(amount, input.currency, field('amount'), 'Prices')
  if (input.model === 'subscription' && !input.interval) {
    throw new DomainError('validation_error', 'interval is required for subscription prices', { param: field('interval') })
  }
  if (input.model !== 'subscription' && input.interval) {
    throw new DomainError('validation_error', 'interval applies to subscription prices only', { param: field('interval') })
  }
  if (input.model === 'metered' && !input.usageBillingMode) {
    throw new DomainError('validation_error', 'usageBillingMode is required for metered prices', { param: field('usageBillingMode') })
  }
  if (input.model !== 'metered' && input.usageBillingMode) {
    throw new DomainError('validation_error', 'usageBillingMode applies to metered prices only', { param: field('usageBillingMode') })
  }
  const needsMeter = input.model === 'metered' || input.model === 'credits'
  if (needsMeter && !input.meterId) {
    throw new DomainError('validation_error', `meterId is required for ${input.model} prices: the amount is the price of one unit of that meter`, {
      param: field('meterId'),
    })
  }
  if (!needsMeter && input.meterId) {
    throw new DomainError('validation_error', 'meterId applies to metered and credits prices only', { param: field('meterId') })
  }
  if (input.meterId) await getMeter(context, input.meterId, field('meterId'))
  const now = context.clock.now()
  return context.db.price.create({
    data: {
      id: createId('Price'),
      accountId: context.account.id,
      productId: product.id,
      amount,
      currency: input.currency,
      model: input.model,
      interval: input.interval ?? null,
      usageBillingMode: input.usageBillingMode ?? null,
      meterId: input.meterId ?? null,
      createdAt: now,
      updatedAt: now,
    },
  })
}

export function chargedWhole(model: PriceModel): boolean {
  return model === 'one_time' || model === 'subscription'
}

export async function createPrice(context: DomainContext, productId: string, input: PriceInput): Promise<Price> {
  return inTransaction(context, async (transaction) => writePrice(transaction, await getProduct(transaction, productId), input))
}
