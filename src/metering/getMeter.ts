import { DomainError } from '../domain/DomainError'
import type { DomainContext } from '../domain/DomainContext'
import type { Meter } from '../generated/prisma/client'

export async function getMeter(context: DomainContext, meterId: string, param = 'meterId'): Promise<Meter> {
  const meter = await context.db.meter.findUnique({ where: { accountId_id: { accountId: context.account.id, id: meterId } } })
  if (!meter) throw new DomainError('meter_not_found', 'No such meter', { param })
  return meter
}
