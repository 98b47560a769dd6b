import type { DomainContext } from '../../domain/DomainContext'
import { DomainError } from '../../domain/DomainError'
import { formatAmount } from '../../domain/money'
import type { Invoice, PixProvider, PixRecurrence } from '../../generated/prisma/client'
import { taxIdDocument } from '../../customers/validateTaxId'
import { createPixCharge } from './createPixCharge'
import { createPixClient } from './createPixClient'
import { invoiceChargeExpiry } from './invoiceChargeExpiry'
import { saoPauloDate } from './saoPauloDate'

interface RecAnswer {
  idRec?: unknown
  status?: unknown
  dadosQR?: { pixCopiaECola?: unknown }
}

const idRecPattern = /^[A-Za-z0-9]{29}$/
/** Up to 3 retries within 7 days of a rejected charge (the payer's bank also retries the same day). */
export const recurrenceRetryPolicy = 'PERMITE_3R_7D'

/**
 * Pix Automático's journey 3 for the first invoice of a pix_auto subscription collected through the
 * PSP: the invoice's immediate charge (`PUT /cob/{txid}`, as for any invoice), the recurrence that
 * names it (`POST /rec`, `ativacao.dadosJornada.txid`), and the composite code that pays the one
 * and authorizes the other (`GET /rec/{idRec}?txid=…` → `dadosQR.pixCopiaECola`), which becomes the
 * invoice's `payment.pixCopiaECola`. Runs in the caller's transaction before it commits: a PSP that
 * refuses or cannot be reached rolls everything back. A second recurrence for the same cob is refused
 * by the PSP, and `subscriptionId` is unique here, so a subscription has one recurrence.
 */
export async function startPixRecurrence(context: DomainContext, provider: PixProvider, invoice: Invoice): Promise<PixRecurrence> {
  const { db, clock, account } = context
  const subscription = await db.subscription.findUniqueOrThrow({ where: { id: invoice.subscriptionId }, include: { customer: true, price: true, product: true } })
  const { customer, price, product } = subscription
  if (!customer.taxId) throw new DomainError('tax_id_required', 'pix_auto needs the customer\'s taxId (CPF or CNPJ): set it on the customer first', { param: 'customerId' })
  const now = clock.now()
  const charge = await createPixCharge(context, provider, { invoiceId: invoice.id, amount: invoice.amountDue, expiresAt: invoiceChargeExpiry(invoice, now), description: `Fatura ${invoice.id}` })
  const client = createPixClient(provider)
  let idRec: string
  let status: string
  let composite: unknown
  try {
    const created = await client.call<RecAnswer>('POST', '/rec', {
      vinculo: {
        objeto: product.name.slice(0, 35),
        contrato: subscription.id.slice(0, 35),
        devedor: { ...taxIdDocument(customer.taxId), nome: (customer.name ?? customer.email ?? customer.id).slice(0, 140) },
      },
      // The first recurring charge is the next period's; this one is paid by the composite code.
      calendario: { dataInicial: saoPauloDate(new Date(Math.max(subscription.currentPeriodEnd.getTime(), now.getTime()))), periodicidade: price.interval === 'year' ? 'ANUAL' : 'MENSAL' },
      // A fixed price is a fixed amount; metered subscriptions vary, so the amount is left open.
      ...(price.model === 'subscription' ? { valor: { valorRec: formatAmount(price.amount, 'BRL') } } : {}),
      politicaRetentativa: recurrenceRetryPolicy,
      ativacao: { dadosJornada: { txid: charge.txid } },
    })
    if (typeof created.idRec !== 'string' || !idRecPattern.test(created.idRec) || typeof created.status !== 'string') {
      throw new DomainError('provider_error', 'The PIX provider answered the recurrence without a usable idRec')
    }
    idRec = created.idRec
    status = created.status
    const read = await client.call<RecAnswer>('GET', `/rec/${idRec}?txid=${charge.txid}`)
    composite = read.dadosQR?.pixCopiaECola
  } finally {
    client.close()
  }
  if (typeof composite !== 'string' || composite === '' || composite.length > 512) {
    throw new DomainError('provider_error', 'The PIX provider answered the recurrence without a usable pixCopiaECola')
  }
  await db.pixCharge.update({ where: { txid: charge.txid }, data: { pixCopiaECola: composite } })
  return db.pixRecurrence.create({
    data: { idRec, accountId: account.id, subscriptionId: subscription.id, status, txid: charge.txid, retryPolicy: recurrenceRetryPolicy, createdAt: now, updatedAt: now },
  })
}
