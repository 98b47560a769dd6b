import type { Currency } from '../domain/money'
import type { PaymentMethod } from '../generated/prisma/client'

/** PIX settles BRL, the USDC rails settle USDC (CONTRACT §1, rail_not_available). */
export const railsByCurrency: Record<Currency, readonly PaymentMethod[]> = {
  BRL: ['pix_manual', 'pix_auto'],
  USDC: ['usdc_invoice', 'usdc_pull'],
}

/** Automatic rails are charged when an invoice is issued; manual ones leave it open for the payer. */
export function isAutomaticRail(rail: PaymentMethod): boolean {
  return rail === 'pix_auto' || rail === 'usdc_pull'
}

export const invoiceDueDays = 7
