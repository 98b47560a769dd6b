import { createDecipheriv } from 'node:crypto'
import { readSecretsKey } from './secretsKey'

/** Reverses encryptSecret; throws when the value was altered or encrypted under another key. */
export function decryptSecret(stored: string): string {
  const [version, iv, tag, ciphertext, extra] = stored.split('.')
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined || extra !== undefined) throw new Error('not an encrypted secret')
  const decipher = createDecipheriv('aes-256-gcm', readSecretsKey(), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
}
