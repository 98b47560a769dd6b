import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import type { Invoice, PixCharge, PixProvider } from '../../generated/prisma/client'
import { createPixClient } from './createPixClient'
import { invoiceChargeExpiry } from './invoiceChargeExpiry'

/** An open invoice's cob is renewed once it ends within this (or has ended). */
export const invoiceChargeRenewalLeadMilliseconds = 7 * 86_400_000

interface CobAnswer {
  txid?: unknown
  status?: unknown
  calendario?: { criacao?: unknown }
}

/**
 * An open invoice stays payable however overdue it is, but its cob ends at `calendario.expiracao`
 * seconds after its creation. Before it ends (or after: an expired cob stays ATIVA at the PSP) its
 * expiry is moved to invoiceChargeExpiry's, counted from the PSP's own `criacao`, with
 * `PATCH /cob/{txid}` `{"calendario":{"expiracao":…}}`. The same txid and code stay live, so a payer
 * holding the old QR pays the one charge, and no second charge exists to be paid twice. The expiracao
 * is computed, not added to, so a retry after a lost answer asks for the same one. A cob the PSP no
 * longer holds ATIVA is not renewed: paid, confirmation settles it (false: nothing renewed, so the
 * worker tries it again only after the others); removed by the PSP, it is logged.
 */
export async function renewPixCharge(context: DomainContext, provider: PixProvider, charge: PixCharge, invoice: Pick<Invoice, 'dueDate'>): Promise<boolean> {
  const now = context.clock.now()
  const expiresAt = invoiceChargeExpiry(invoice, now)
  const client = createPixClient(provider)
  try {
    const cob = await client.call<CobAnswer>('GET', `/cob/${charge.txid}`)
    const createdAt = typeof cob.calendario?.criacao === 'string' ? new Date(cob.calendario.criacao) : new Date(Number.NaN)
    if (cob.txid !== charge.txid || Number.isNaN(createdAt.getTime())) throw new DomainError('provider_error', 'The PIX provider answered for another charge, or without its creation time')
    if (cob.status === 'CONCLUIDA') return false
    if (cob.status !== 'ATIVA') throw new DomainError('provider_error', `The PIX provider holds charge ${charge.txid} as ${String(cob.status)}: it cannot be renewed`)
    // The PSP's clock is real time; the account's (a test clock) may run ahead of it.
    const realExpiry = Date.now() + (expiresAt.getTime() - now.getTime())
    await client.call('PATCH', `/cob/${charge.txid}`, { calendario: { expiracao: Math.ceil((realExpiry - createdAt.getTime()) / 1000) } })
  } finally {
    client.close()
  }
  await context.db.pixCharge.update({ where: { txid: charge.txid }, data: { expiresAt } })
  return true
}
