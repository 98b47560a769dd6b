import type { PixProvider } from '../../generated/prisma/client'
import { decryptSecret } from '../../secrets/decryptSecret'
import { PixClient } from './PixClient'

/** A client for the account's configured PSP, its secrets decrypted only in memory. */
export function createPixClient(provider: PixProvider, timeoutMilliseconds?: number): PixClient {
  return new PixClient(
    {
      cacheKey: `${provider.accountId}:${provider.configuredAt.getTime()}`,
      gateKey: provider.accountId,
      apiUrl: provider.apiUrl,
      clientId: provider.clientId,
      clientSecret: decryptSecret(provider.clientSecretEncrypted),
      tls:
        provider.tlsCertificate && provider.tlsKeyEncrypted
          ? { certificate: provider.tlsCertificate, key: decryptSecret(provider.tlsKeyEncrypted), ca: provider.tlsCa ?? undefined }
          : undefined,
    },
    timeoutMilliseconds,
  )
}
