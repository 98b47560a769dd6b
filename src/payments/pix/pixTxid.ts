import { createHash } from 'node:crypto'

/**
 * The txid of the charge for one resource (a checkout session or an invoice): derived from its id, so
 * that a retry after a failure or a crash asks the PSP for the same charge, never a second one.
 * 35 characters of `[a-z0-9]`, inside the standard's `^[a-zA-Z0-9]{26,35}$`.
 */
export function pixTxid(resourceId: string): string {
  return `bk${createHash('sha256').update(resourceId).digest('hex').slice(0, 33)}`
}
