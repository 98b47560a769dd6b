import { randomBytes } from 'node:crypto'
import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import type { PixProvider } from '../../generated/prisma/client'
import { encryptSecret } from '../../secrets/encryptSecret'
import { createPixClient } from './createPixClient'
import { pixWebhookUrl } from './pixWebhookUrl'
import { validatePixApiUrl } from './validatePixApiUrl'

export interface ConfigurePixProviderInput {
  apiUrl: string
  clientId: string
  clientSecret: string
  pixKey: string
  tlsCertificate?: string | null
  tlsKey?: string | null
  tlsCa?: string | null
  reconcileSeconds?: number | null
  receiverBranch?: string | null
  receiverAccount?: string | null
  receiverAccountType?: string | null
}

const receiverAccountTypes = ['CORRENTE', 'POUPANCA', 'PAGAMENTO']

/**
 * Stores the account's PSP (CONTRACT §9.1) once the PSP accepted it: a token is obtained with the
 * credentials given and the webhooks are registered (`PUT /webhook/{pixKey}`, `PUT /webhookrec`, `PUT /webhookcobr`) on
 * `{publicUrl}/webhooks/pix/{token}`, the token an unguessable per-account secret kept across
 * reconfigurations. A live account's apiUrl is https on a public address (validatePixApiUrl).
 * Secrets are encrypted before anything else happens, so a missing
 * BILLING_SECRETS_KEY refuses at once; they are never returned.
 */
export async function configurePixProvider(context: DomainContext, input: ConfigurePixProviderInput, publicUrl: string): Promise<PixProvider> {
  const apiUrl = await validatePixApiUrl(input.apiUrl, context.account.mode)
  const clientId = requiredText(input.clientId, 'clientId', 200)
  const clientSecret = requiredText(input.clientSecret, 'clientSecret', 2000)
  const pixKey = requiredText(input.pixKey, 'pixKey', 77)
  const tlsCertificate = optionalPem(input.tlsCertificate, 'tlsCertificate')
  const tlsKey = optionalPem(input.tlsKey, 'tlsKey')
  const tlsCa = optionalPem(input.tlsCa, 'tlsCa')
  if ((tlsCertificate === null) !== (tlsKey === null)) throw invalid(tlsCertificate === null ? 'tlsCertificate' : 'tlsKey', 'tlsCertificate and tlsKey go together')
  const reconcileSeconds = input.reconcileSeconds ?? 60
  if (!Number.isInteger(reconcileSeconds) || reconcileSeconds < 1 || reconcileSeconds > 86_400) throw invalid('reconcileSeconds', 'reconcileSeconds must be a whole number from 1 to 86400')
  const receiverAccountType = input.receiverAccountType ?? null
  if (receiverAccountType !== null && !receiverAccountTypes.includes(receiverAccountType)) throw invalid('receiverAccountType', `receiverAccountType must be one of ${receiverAccountTypes.join(', ')}`)
  const receiverBranch = input.receiverBranch == null ? null : requiredText(input.receiverBranch, 'receiverBranch', 20)
  const receiverAccount = input.receiverAccount == null ? null : requiredText(input.receiverAccount, 'receiverAccount', 40)

  const clientSecretEncrypted = encryptSecret(clientSecret)
  const tlsKeyEncrypted = tlsKey === null ? null : encryptSecret(tlsKey)
  const existing = await context.db.pixProvider.findUnique({ where: { accountId: context.account.id } })
  const webhookToken = existing?.webhookToken ?? randomBytes(24).toString('base64url')
  const fields = {
    apiUrl,
    clientId,
    clientSecretEncrypted,
    pixKey,
    tlsCertificate,
    tlsKeyEncrypted,
    tlsCa,
    reconcileSeconds,
    receiverBranch,
    receiverAccount,
    receiverAccountType,
    webhookToken,
    configuredAt: context.clock.now(),
  }
  const client = createPixClient({ accountId: context.account.id, reconciledThrough: existing?.reconciledThrough ?? null, ...fields })
  try {
    await client.checkCredentials()
    await client.call('PUT', `/webhook/${encodeURIComponent(pixKey)}`, { webhookUrl: pixWebhookUrl(publicUrl, webhookToken) })
    // Pix Automático's callbacks: the PSP appends /rec and /cobr to the same URL.
    await client.call('PUT', '/webhookrec', { webhookUrl: pixWebhookUrl(publicUrl, webhookToken) })
    await client.call('PUT', '/webhookcobr', { webhookUrl: pixWebhookUrl(publicUrl, webhookToken) })
  } finally {
    client.close()
  }
  return context.db.pixProvider.upsert({ where: { accountId: context.account.id }, create: { accountId: context.account.id, ...fields }, update: fields })
}

function invalid(param: string, message: string): DomainError {
  return new DomainError('validation_error', message, { param })
}

function requiredText(value: string, param: string, maxLength: number): string {
  const text = value.trim()
  if (text === '' || text.length > maxLength || [...text].some((character) => character.charCodeAt(0) < 0x20)) throw invalid(param, `${param} must be 1 to ${maxLength} printable characters`)
  return text
}

function optionalPem(value: string | null | undefined, param: string): string | null {
  if (value == null || value.trim() === '') return null
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(value) || value.length > 64 * 1024) throw invalid(param, `${param} must be PEM text (-----BEGIN …-----)`)
  return value
}
