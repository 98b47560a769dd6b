import { formatAmount } from '../../domain/money'
import type { PixCharge, PixRecurringCharge } from '../../generated/prisma/client'

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

/** CONTRACT §9: a pix_auto invoice charged by the payer's bank through its recurrence (a `cobr`). */
export interface PixAutomaticoPaymentInstructionsValue {
  rail: 'pix_automatico'
  txid: string
  recurrenceId: string
  dueDate: string
  status: string
  amountReceived: string
}

export function pixAutomaticoPaymentInstructions(charge: PixRecurringCharge): PixAutomaticoPaymentInstructionsValue {
  return {
    rail: 'pix_automatico',
    txid: charge.txid,
    recurrenceId: charge.idRec,
    dueDate: charge.dueDate.toISOString().slice(0, 10),
    status: charge.status,
    amountReceived: formatAmount(charge.amountReceived, 'BRL'),
  }
}
