import type { Decimal } from '../domain/money'
import { Prisma, type Meter } from '../generated/prisma/client'

/** Units a use counts for: the quantity on a `sum` meter, one on a `count` meter (CONTRACT §6). */
export function unitsFor(meter: Pick<Meter, 'aggregation'>, quantity: Decimal): Decimal {
  return meter.aggregation === 'count' ? new Prisma.Decimal(1) : quantity
}
