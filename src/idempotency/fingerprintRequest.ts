import { createHash } from 'node:crypto'
import { canonicalJson } from '../domain/canonicalJson'

/** Same method, path and body (compared as JSON values, so key order and spacing do not matter). */
export function fingerprintRequest(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest('hex')
}
