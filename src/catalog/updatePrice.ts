import { DomainError } from '../domain/DomainError'
import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { parseAmount, requirePayableByPix, type Currency } from '../domain/money'
import type { Price } from '../generated/prisma/client'
import { chargedWhole } from './createPrice'
import { getProduct } from './getProduct'

export interface UpdatePriceInput {
  amount?: string | null
  currency?: Currency | null
}

/** Changes amount and/or currency; the amount is checked against the currency it will have. */
export async function updatePrice(context: DomainContext, productId: string, priceId: string, input: UpdatePriceInput): Promise<Price> {
  return inTransaction(context, async (transaction) => {
    const { db, account, clock } = transaction
    await getProduct(transaction, productId)
    const price = await db.price.findUnique({ where: { accountId_id: { accountId: account.id, id: priceId } } })
    if (!price || price.productId !== productId) throw new DomainError('price_not_found', 'No such price on this product', { param: 'priceId' })
    const currency = input.currency ?? price.currency
    const amount = input.amount == null ? price.amount : parseAmount(input.amount, currency, 'amount')
    if (input.amount == null && input.currency != null) parseAmount(price.amount.toFixed(), currency, 'currency')
    if (chargedWhole(price.model)) requirePayableByPix(amount, currency, input.amount == null ? 'currency' : 'amount', 'Prices')
    return db.price.update({ where: { id: price.id }, data: { amount, currency, updatedAt: clock.now() } })
  })
}
