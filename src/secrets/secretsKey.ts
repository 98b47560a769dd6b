import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DomainError } from '../domain/DomainError'

// The key that encrypts provider secrets at rest (CONTRACT §9): BILLING_SECRETS_KEY, 32 bytes in
// base64. With the embedded database (no DATABASE_URL) one is generated into DATA_DIR on first use;
// with DATABASE_URL the operator must provide it, since a key generated on one machine would leave
// every other server unable to read what this one stored.

let cached: Buffer | undefined

export function readSecretsKey(environment: NodeJS.ProcessEnv = process.env): Buffer {
  if (cached) return cached
  const given = environment.BILLING_SECRETS_KEY
  if (given) {
    const key = Buffer.from(given, 'base64')
    if (key.length !== 32) throw new DomainError('invalid_state', 'BILLING_SECRETS_KEY must be 32 bytes in base64')
    cached = key
    return key
  }
  if (environment.DATABASE_URL) {
    throw new DomainError('invalid_state', 'BILLING_SECRETS_KEY is not set: provider secrets cannot be stored (set it to 32 random bytes in base64, the same on every server)')
  }
  const file = path.join(environment.DATA_DIR ?? './data', 'secrets.key')
  let text: string
  try {
    text = readFileSync(file, 'utf8').trim()
  } catch {
    mkdirSync(path.dirname(file), { recursive: true })
    text = randomBytes(32).toString('base64')
    writeFileSync(file, `${text}\n`, { flag: 'wx', mode: 0o600 })
    chmodSync(file, 0o600)
  }
  cached = Buffer.from(text, 'base64')
  if (cached.length !== 32) throw new DomainError('invalid_state', `${file} must hold 32 bytes in base64`)
  return cached
}
