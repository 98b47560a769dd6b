import { formatAmount } from '../../domain/money'
import type { PixCharge } from '../../generated/prisma/client'

/** CONTRACT §9: what a BRL resource's `payment` shows once its charge exists. */
export interface PixPaymentInstructionsValue {
  rail: 'pix'
  txid: string
  pixCopiaECola: string
  expiresAt: Date
  amountReceived: string
}

export function pixPaymentInstructions(charge: PixCharge): PixPaymentInstructionsValue {
  return {
    rail: 'pix',
    txid: charge.txid,
    pixCopiaECola: charge.pixCopiaECola,
    expiresAt: charge.expiresAt,
    amountReceived: formatAmount(charge.amountReceived, 'BRL'),
  }
}
