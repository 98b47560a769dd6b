import type { DomainContext } from '../../domain/DomainContext'
import { formatAmount } from '../../domain/money'
import type { Invoice, PixProvider, PixRecurrence, PixRecurringCharge } from '../../generated/prisma/client'
import { createPixClient } from './createPixClient'
import { pixTxid } from './pixTxid'
import { addDays, saoPauloDate } from './saoPauloDate'

/** The payer's bank must receive a recurring charge 2 to 10 days before it is due. */
const minimumLeadDays = 2
const maximumLeadDays = 10

interface CobrAnswer {
  txid?: unknown
  status?: unknown
}

/**
 * The recurring charge (`PUT /cobr/{txid}`) of one invoice of an approved recurrence, due on the
 * invoice's due date kept within the 2–10 day lead (São Paulo days on the account's clock). The txid
 * is derived from the invoice (`cobr:` + id, apart from its cob's), so a retry puts the same charge.
 * Called in a transaction: when the PSP refuses or is down, nothing is stored and the worker retries.
 */
export async function createPixRecurringCharge(context: DomainContext, provider: PixProvider, invoice: Invoice, recurrence: PixRecurrence): Promise<PixRecurringCharge> {
  const txid = pixTxid(`cobr:${invoice.id}`)
  const existing = await context.db.pixRecurringCharge.findUnique({ where: { txid } })
  if (existing) return existing
  const now = context.clock.now()
  const today = saoPauloDate(now)
  const earliest = addDays(today, minimumLeadDays)
  const latest = addDays(today, maximumLeadDays)
  const invoiceDue = saoPauloDate(invoice.dueDate)
  const dueDate = invoiceDue < earliest ? earliest : invoiceDue > latest ? latest : invoiceDue
  const receiver =
    provider.receiverBranch && provider.receiverAccount && provider.receiverAccountType
      ? { recebedor: { agencia: provider.receiverBranch, conta: provider.receiverAccount, tipoConta: provider.receiverAccountType } }
      : {}
  const client = createPixClient(provider)
  let cobr: CobrAnswer
  try {
    cobr = await client.call<CobrAnswer>('PUT', `/cobr/${txid}`, {
      idRec: recurrence.idRec,
      infoAdicional: `Fatura ${invoice.id}`,
      calendario: { dataDeVencimento: dueDate },
      valor: { original: formatAmount(invoice.amountDue, 'BRL') },
      ajusteDiaUtil: true,
      ...receiver,
    })
  } finally {
    client.close()
  }
  await context.db.pixRecurringCharge.createMany({
    data: {
      txid,
      accountId: context.account.id,
      invoiceId: invoice.id,
      idRec: recurrence.idRec,
      amount: invoice.amountDue,
      dueDate: new Date(`${dueDate}T00:00:00Z`),
      status: typeof cobr.status === 'string' ? cobr.status : 'CRIADA',
      createdAt: now,
      updatedAt: now,
    },
    skipDuplicates: true,
  })
  return context.db.pixRecurringCharge.findUniqueOrThrow({ where: { txid } })
}
