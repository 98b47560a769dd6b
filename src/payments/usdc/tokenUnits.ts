import { Prisma } from '../../generated/prisma/client'

/** A USDC amount in major units (6 decimals, exact) as the token's integer units. */
export function toTokenUnits(amount: Prisma.Decimal | string): bigint {
  return BigInt(new Prisma.Decimal(amount).mul(1_000_000).toFixed(0))
}

/** The token's integer units as major units (exact). */
export function fromTokenUnits(units: bigint): Prisma.Decimal {
  return new Prisma.Decimal(units.toString()).div(1_000_000)
}
