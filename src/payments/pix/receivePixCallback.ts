import { contextForAccount, type Database } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { confirmPixCharge } from './confirmPixCharge'
import { confirmPixRefunds } from './confirmPixRefunds'
import { confirmPixRecurrence } from './confirmPixRecurrence'
import { confirmPixRecurringCharge } from './confirmPixRecurringCharge'
import { createPixClient } from './createPixClient'

const txidPattern = /^[a-zA-Z0-9]{26,35}$/
const endToEndIdPattern = /^[A-Za-z0-9]{32}$/
const idRecPattern = /^[A-Za-z0-9]{29}$/
const maxEntries = 100

/**
 * `POST /webhooks/pix/{token}/pix` from the account's PSP: `{"pix":[…]}` (and `/rec`, `/cobr` for Pix
 * Automático, confirmed with `GET /rec/{idRec}` and `GET /cobr/{txid}`). The body is only a trigger: each txid that names one of the account's charges is confirmed with `GET /cob/{txid}`,
 * each endToEndId with our pending refunds with `GET /pix/{e2eid}`, so a forged or replayed callback
 * settles nothing the PSP did not confirm. An unknown token is `not_found` and reads nothing.
 */
export async function receivePixCallback(db: Database, token: string, body: unknown, kind: 'pix' | 'rec' | 'cobr' = 'pix'): Promise<void> {
  const provider = token.length >= 16 && token.length <= 100 ? await db.pixProvider.findUnique({ where: { webhookToken: token } }) : null
  if (!provider) throw new DomainError('not_found', 'No such webhook')
  // `{"pix":[…]}`, `{"recs":[…]}` (webhookrec), `{"cobsr":[…]}` (webhookcobr, the standard's spelling).
  const listName = kind === 'pix' ? 'pix' : kind === 'rec' ? 'recs' : 'cobsr'
  const entries = (body as Record<string, unknown> | null)?.[listName]
  if (!Array.isArray(entries) || entries.length > maxEntries) throw new DomainError('validation_error', `${listName} must be a list of at most ${maxEntries} entries`, { param: listName })
  const txids = new Set<string>()
  const endToEndIds = new Set<string>()
  const idRecs = new Set<string>()
  for (const entry of entries as { txid?: unknown; endToEndId?: unknown; idRec?: unknown }[]) {
    if (typeof entry?.txid === 'string' && txidPattern.test(entry.txid)) txids.add(entry.txid)
    if (kind === 'pix' && typeof entry?.endToEndId === 'string' && endToEndIdPattern.test(entry.endToEndId)) endToEndIds.add(entry.endToEndId)
    if (kind === 'rec' && typeof entry?.idRec === 'string' && idRecPattern.test(entry.idRec)) idRecs.add(entry.idRec)
  }
  const account = await db.account.findUniqueOrThrow({ where: { id: provider.accountId } })
  const context = contextForAccount(db, account)
  const client = createPixClient(provider)
  try {
    if (kind === 'cobr') {
      for (const txid of txids) await confirmPixRecurringCharge(context, client, txid)
      return
    }
    for (const idRec of idRecs) await confirmPixRecurrence(context, client, idRec)
    if (kind === 'rec') return
    for (const txid of txids) await confirmPixCharge(context, client, txid)
    for (const endToEndId of endToEndIds) await confirmPixRefunds(context, client, endToEndId)
  } finally {
    client.close()
  }
}
