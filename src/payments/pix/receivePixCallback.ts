import { contextForAccount, type Database } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { confirmPixCharge } from './confirmPixCharge'
import { confirmPixRefunds } from './confirmPixRefunds'
import { createPixClient } from './createPixClient'

const txidPattern = /^[a-zA-Z0-9]{26,35}$/
const endToEndIdPattern = /^[A-Za-z0-9]{32}$/
const maxEntries = 100

/**
 * `POST /webhooks/pix/{token}/pix` from the account's PSP: `{"pix":[…]}`. The body is only a
 * trigger: each txid that names one of the account's charges is confirmed with `GET /cob/{txid}`,
 * each endToEndId with our pending refunds with `GET /pix/{e2eid}`, so a forged or replayed callback
 * settles nothing the PSP did not confirm. An unknown token is `not_found` and reads nothing.
 */
export async function receivePixCallback(db: Database, token: string, body: unknown): Promise<void> {
  const provider = token.length >= 16 && token.length <= 100 ? await db.pixProvider.findUnique({ where: { webhookToken: token } }) : null
  if (!provider) throw new DomainError('not_found', 'No such webhook')
  const entries = (body as { pix?: unknown } | null)?.pix
  if (!Array.isArray(entries) || entries.length > maxEntries) throw new DomainError('validation_error', `pix must be a list of at most ${maxEntries} Pix`, { param: 'pix' })
  const txids = new Set<string>()
  const endToEndIds = new Set<string>()
  for (const entry of entries as { txid?: unknown; endToEndId?: unknown }[]) {
    if (typeof entry?.txid === 'string' && txidPattern.test(entry.txid)) txids.add(entry.txid)
    if (typeof entry?.endToEndId === 'string' && endToEndIdPattern.test(entry.endToEndId)) endToEndIds.add(entry.endToEndId)
  }
  const account = await db.account.findUniqueOrThrow({ where: { id: provider.accountId } })
  const context = contextForAccount(db, account)
  const client = createPixClient(provider)
  try {
    for (const txid of txids) await confirmPixCharge(context, client, txid)
    for (const endToEndId of endToEndIds) await confirmPixRefunds(context, client, endToEndId)
  } finally {
    client.close()
  }
}
