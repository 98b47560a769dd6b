import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import type { PixRecurrence } from '../../generated/prisma/client'
import type { PixClient } from './PixClient'

const recurrenceStatuses = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA']

/**
 * A recurrence's status as the PSP states it (`GET /rec/{idRec}`), never as a callback's body says:
 * a forged callback can only make us ask. Null when the idRec is not one of the account's.
 */
export async function confirmPixRecurrence(context: DomainContext, client: PixClient, idRec: string): Promise<PixRecurrence | null> {
  const known = await context.db.pixRecurrence.findFirst({ where: { idRec, accountId: context.account.id } })
  if (!known) return null
  const rec = await client.call<{ idRec?: unknown; status?: unknown }>('GET', `/rec/${idRec}`)
  if (rec.idRec !== idRec || typeof rec.status !== 'string' || !recurrenceStatuses.includes(rec.status)) {
    throw new DomainError('provider_error', 'The PIX provider answered for another recurrence, or with an unknown status')
  }
  if (rec.status === known.status) return known
  return context.db.pixRecurrence.update({ where: { idRec }, data: { status: rec.status, updatedAt: context.clock.now() } })
}
