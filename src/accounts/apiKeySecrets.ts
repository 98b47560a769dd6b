import { createHash } from 'node:crypto'
import { randomBase62 } from '../domain/createId'

// A key is `bk_<mode>_` and 32 base62 characters (~190 bits). Only its SHA-256 is stored: a fast hash
// is right here because the secret is random and long, not a password a person chose.

const keyPattern = /^bk_(test|live)_[0-9A-Za-z]{16,128}$/

export function generateKeySecret(mode: 'test' | 'live'): string {
  return `bk_${mode}_${randomBase62(32)}`
}

export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

export function isWellFormedKeySecret(secret: string): boolean {
  return keyPattern.test(secret)
}

/** What listings show of a key: enough to tell keys apart, never enough to use one. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, 12)
}
