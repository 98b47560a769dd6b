import { Prisma } from '../generated/prisma/client'

/**
 * The credits price of a meter, as SQL (CONTRACT §6): an active `credits` price, or an active `metered`
 * price with usageBillingMode `credits`, on an active product; the newest wins. A LATERAL subquery over
 * the meter named by `meterIdColumn`, so the hot paths resolve customer, meter, price and balance in one
 * round trip. Every reader of "which price charges credits for this meter" goes through here.
 */
export function creditsPriceLateral(accountId: string, meterIdColumn: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`LATERAL (
    SELECT price.id, price.amount, price.currency
    FROM "Price" price JOIN "Product" product ON product.id = price."productId"
    WHERE price."accountId" = ${accountId}
      AND price."meterId" = ${meterIdColumn}
      AND price.active
      AND product.status = 'active'
      AND (price.model = 'credits' OR (price.model = 'metered' AND price."usageBillingMode" = 'credits'))
    ORDER BY price."createdAt" DESC, price.id DESC
    LIMIT 1
  )`
}
