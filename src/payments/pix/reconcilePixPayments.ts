import type { DomainContext } from '../../domain/DomainContext'
import type { PixProvider } from '../../generated/prisma/client'
import { logError } from '../../logging/log'
import { confirmPixCharge } from './confirmPixCharge'
import { confirmPixRefunds } from './confirmPixRefunds'
import type { PixClient } from './PixClient'
import { isPspUnreachable } from './attemptPixWork'

/** Each window starts this far before the previous one ended, so a Pix the PSP lists late is still seen. */
export const reconcileOverlapMilliseconds = 10 * 60 * 1000
/** The standard's largest `paginacao.itensPorPagina`. */
const defaultPageSize = 1000
const maxPages = 1000

interface PixPage {
  parametros?: { paginacao?: { quantidadeDePaginas?: unknown } }
  pix?: unknown
}

/**
 * The backstop for callbacks that never came: every Pix the PSP received in a window overlapping the
 * previous one (`GET /pix`, every page), each txid of ours confirmed like a callback would be (so a
 * payment seen both ways counts once), then every pending refund asked after. The PSP's clock is real
 * time, whatever the account's test clock says. Returns how far the next window may move: the window's
 * end, or, when a charge could not be confirmed (the PSP answered its GET with an error), the time of
 * its earliest unrecorded Pix, so the next window (which starts an overlap before it) lists that Pix
 * again. Each charge and refund is confirmed alone: one failing is logged and holds back no other.
 */
export async function reconcilePixPayments(context: DomainContext, provider: PixProvider, client: PixClient, options: { pageSize?: number } = {}): Promise<Date> {
  const end = new Date()
  const start = new Date((provider.reconciledThrough ?? provider.configuredAt).getTime() - reconcileOverlapMilliseconds)
  const pageSize = options.pageSize ?? defaultPageSize
  const seen = new Map<string, { txid: string; horario: Date }>()
  for (let page = 0, pages = 1; page < pages && page < maxPages; page += 1) {
    const query = new URLSearchParams({ inicio: start.toISOString(), fim: end.toISOString(), 'paginacao.paginaAtual': String(page), 'paginacao.itensPorPagina': String(pageSize) })
    const answer = await client.call<PixPage>('GET', `/pix?${query}`)
    const declared = Number(answer.parametros?.paginacao?.quantidadeDePaginas ?? 1)
    pages = Number.isInteger(declared) && declared > 0 ? declared : 1
    for (const pix of Array.isArray(answer.pix) ? (answer.pix as { txid?: unknown; endToEndId?: unknown; horario?: unknown }[]) : []) {
      if (typeof pix?.txid !== 'string' || typeof pix.endToEndId !== 'string') continue
      const horario = typeof pix.horario === 'string' ? new Date(pix.horario) : new Date(Number.NaN)
      // A Pix without a readable time holds the window where it started.
      seen.set(pix.endToEndId, { txid: pix.txid, horario: Number.isNaN(horario.getTime()) ? start : horario })
    }
  }
  // Only Pix not yet recorded need their charge confirmed: the overlap repeats the others every time.
  const recorded = await context.db.pixPayment.findMany({ where: { endToEndId: { in: [...seen.keys()] } }, select: { endToEndId: true } })
  for (const { endToEndId } of recorded) seen.delete(endToEndId)
  const earliest = new Map<string, Date>()
  for (const { txid, horario } of seen.values()) {
    const known = earliest.get(txid)
    if (!known || horario < known) earliest.set(txid, horario)
  }
  let through = end
  if (earliest.size > 0) {
    const ours = await context.db.pixCharge.findMany({ where: { accountId: context.account.id, txid: { in: [...earliest.keys()] } }, select: { txid: true } })
    for (const { txid } of ours) {
      try {
        await confirmPixCharge(context, client, txid)
      } catch (error) {
        // A PSP that cannot be reached fails them all alike: the window stays, the pass ends.
        if (isPspUnreachable(error)) throw error
        logError(error)
        const horario = earliest.get(txid)!
        if (horario < through) through = horario
      }
    }
  }
  const pendingRefunds = await context.db.refund.findMany({ where: { accountId: context.account.id, rail: 'pix', status: 'pending' }, distinct: ['providerReference'], select: { providerReference: true } })
  for (const { providerReference } of pendingRefunds) {
    await confirmPixRefunds(context, client, providerReference).catch((error: unknown) => {
      if (isPspUnreachable(error)) throw error
      logError(error)
    })
  }
  return through
}
