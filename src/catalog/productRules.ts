import type { PriceModel, ProductType } from '../generated/prisma/client'

/** Which price models each product type sells. */
export const modelsForProductType: Record<ProductType, readonly PriceModel[]> = {
  subscription: ['subscription', 'metered'],
  one_time: ['one_time'],
  metered: ['metered', 'credits'],
  credit_pack: ['one_time'],
}

export const productLimits = { name: 250, description: 5000 } as const
