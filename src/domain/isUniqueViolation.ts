/** Whether a database error is a unique-constraint violation (Prisma's P2002), optionally on `field`. */
export function isUniqueViolation(error: unknown, field?: string): boolean {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'P2002') return false
  if (field === undefined) return true
  return JSON.stringify((error as { meta?: unknown }).meta ?? {}).includes(field)
}
