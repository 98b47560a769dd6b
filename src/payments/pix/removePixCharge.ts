import type { DomainContext } from '../../domain/DomainContext'
import type { PixCharge, PixProvider } from '../../generated/prisma/client'
import { createPixClient } from './createPixClient'

/**
 * Takes a charge off the PSP (`PATCH /cob/{txid}` REMOVIDA_PELO_USUARIO_RECEBEDOR) when its session is
 * canceled or expired, so nobody can pay it any more. Inside the caller's transaction: a refusal rolls
 * the cancellation back rather than leaving a payable charge behind a canceled session.
 */
export async function removePixCharge(context: DomainContext, provider: PixProvider, charge: PixCharge): Promise<void> {
  if (charge.status !== 'active') return
  const client = createPixClient(provider)
  try {
    await client.call('PATCH', `/cob/${charge.txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  } finally {
    client.close()
  }
  await context.db.pixCharge.updateMany({ where: { txid: charge.txid, status: 'active' }, data: { status: 'removed' } })
}
