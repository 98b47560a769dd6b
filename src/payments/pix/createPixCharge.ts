import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { formatAmount, type Decimal } from '../../domain/money'
import type { PixCharge, PixProvider } from '../../generated/prisma/client'
import { createPixClient } from './createPixClient'
import { pixTxid } from './pixTxid'

export interface PixPayable {
  checkoutSessionId?: string
  invoiceId?: string
  amount: Decimal
  /** When the payer may no longer pay it: the charge's `calendario.expiracao` ends then. */
  expiresAt: Date
  /** Shown to the payer by their bank (`solicitacaoPagador`). */
  description: string
}

interface CobAnswer {
  txid?: unknown
  status?: unknown
  pixCopiaECola?: unknown
}

/**
 * The `cob` for one checkout session or invoice (`PUT /cob/{txid}`, the txid derived from the
 * resource id). Called inside the resource's transaction, before its commit: when the PSP refuses or
 * cannot be reached, the error rolls everything back (nothing half-done), and a retry puts the same
 * txid again (a PSP accepts a repeated PUT on an ATIVA cob), so no second charge can exist.
 */
export async function createPixCharge(context: DomainContext, provider: PixProvider, payable: PixPayable): Promise<PixCharge> {
  const resourceId = payable.checkoutSessionId ?? payable.invoiceId
  if (!resourceId) throw new Error('a PIX charge is for a checkout session or an invoice')
  const txid = pixTxid(resourceId)
  const existing = await context.db.pixCharge.findUnique({ where: { txid } })
  if (existing) return existing
  const now = context.clock.now()
  const expiracao = Math.max(60, Math.ceil((payable.expiresAt.getTime() - now.getTime()) / 1000))
  const client = createPixClient(provider)
  let cob: CobAnswer
  try {
    cob = await client.call<CobAnswer>('PUT', `/cob/${txid}`, {
      calendario: { expiracao },
      valor: { original: formatAmount(payable.amount, 'BRL') },
      chave: provider.pixKey,
      solicitacaoPagador: payable.description.slice(0, 140),
    })
  } finally {
    client.close()
  }
  if (typeof cob.pixCopiaECola !== 'string' || cob.pixCopiaECola === '' || cob.pixCopiaECola.length > 512) {
    throw new DomainError('provider_error', 'The PIX provider answered the charge without a usable pixCopiaECola')
  }
  await context.db.pixCharge.createMany({
    data: {
      txid,
      accountId: context.account.id,
      checkoutSessionId: payable.checkoutSessionId ?? null,
      invoiceId: payable.invoiceId ?? null,
      amount: payable.amount,
      pixCopiaECola: cob.pixCopiaECola,
      status: 'active',
      expiresAt: payable.expiresAt,
      createdAt: now,
    },
    skipDuplicates: true,
  })
  return context.db.pixCharge.findUniqueOrThrow({ where: { txid } })
}
