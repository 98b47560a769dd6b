import { inTransaction, type DomainContext } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import { DomainError } from '../domain/DomainError'
import { validateText } from '../domain/validateMetadata'
import type { Meter, MeterAggregation, MeterResetPeriod, MeterUnit } from '../generated/prisma/client'

export interface CreateMeterInput {
  name: string
  aggregation: MeterAggregation
  unit: MeterUnit
  resetPeriod: MeterResetPeriod
}

/** "API Calls (v2)" → "api-calls-v2"; a name with no letters or digits gets "meter". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return slug || 'meter'
}

/**
 * The slug is unique per account: a taken slug gets the first free suffix (-2, -3, …). Conflicts are
 * skipped (ON CONFLICT DO NOTHING), not caught, so an enclosing transaction stays usable.
 */
export async function createMeter(context: DomainContext, input: CreateMeterInput): Promise<Meter> {
  const name = validateText(input.name, 'name', 200)
  const base = slugify(name)
  return inTransaction(context, async ({ db, account, clock }) => {
    const id = createId('Meter')
    for (let attempt = 1; attempt <= 1000; attempt += 1) {
      const slug = attempt === 1 ? base : `${base}-${attempt}`
      const created = await db.meter.createMany({
        data: { id, accountId: account.id, name, slug, aggregation: input.aggregation, unit: input.unit, resetPeriod: input.resetPeriod, createdAt: clock.now() },
        skipDuplicates: true,
      })
      if (created.count === 1) return db.meter.findUniqueOrThrow({ where: { id } })
    }
    throw new DomainError('validation_error', 'Too many meters share this name', { param: 'name' })
  })
}
