import { recordEvent, type EventContext } from '../events/recordEvent'
import type { Database } from '../domain/DomainContext'
import { createId } from '../domain/createId'
import type { Currency } from '../domain/money'
import { Prisma, type Invoice, type PaymentMethod, type Price, type Product, type Subscription } from '../generated/prisma/client'
import { invoiceDueDays } from '../subscriptions/paymentRails'

export interface InvoiceRequest {
  subscription: Subscription & { price: Price; product: Product }
  /** The period whose fee is charged. */
  period: { start: Date; end: Date }
  /** The closed period whose subscription-mode usage is charged (none on the first invoice). */
  usagePeriod?: { start: Date; end: Date }
  now: Date
}

interface DraftLine {
  description: string
  priceId: string | null
  meterId: string | null
  quantity: Prisma.Decimal
  unitAmount: Prisma.Decimal
  amount: Prisma.Decimal
}

/**
 * Writes the invoice of one subscription period: the period's fee (a `subscription` price) and the
 * closed period's usage under each `subscription`-mode metered price of the product, aggregated by the
 * meter (`sum` of quantities or `count` of events) over events whose timestamps fall in that period.
 * A zero total is paid at once (nothing to collect); otherwise it stays open, due `invoiceDueDays`
 * after issue, and collecting it is the caller's next step (`collectInvoice`): issuing never records
 * money. At most one invoice exists per subscription and period (a unique index); asked again, this
 * returns the existing one and writes nothing.
 */
export async function issueInvoice(context: EventContext, request: InvoiceRequest): Promise<{ invoice: Invoice; created: boolean }> {
  const { db } = context
  const { subscription, period, now } = request
  const existing = await db.invoice.findUnique({ where: { subscriptionId_periodStart: { subscriptionId: subscription.id, periodStart: period.start } } })
  if (existing) return { invoice: existing, created: false }
  const currency = subscription.price.currency as Currency
  const lines: DraftLine[] = []
  if (subscription.price.model === 'subscription') {
    lines.push({
      description: `${subscription.product.name} (${subscription.price.interval ?? 'month'}ly fee)`,
      priceId: subscription.price.id,
      meterId: null,
      quantity: new Prisma.Decimal(1),
      unitAmount: subscription.price.amount,
      amount: subscription.price.amount,
    })
  }
  if (request.usagePeriod) lines.push(...(await usageLines(db, subscription, currency, request.usagePeriod)))
  const total = lines.reduce((sum, line) => sum.plus(line.amount), new Prisma.Decimal(0))
  const paidNow = total.isZero()
  const invoiceId = createId('Invoice')
  const inserted = await db.invoice.createMany({
    data: {
      id: invoiceId,
      accountId: subscription.accountId,
      customerId: subscription.customerId,
      subscriptionId: subscription.id,
      status: paidNow ? 'paid' : 'open',
      currency,
      total,
      amountDue: total,
      amountPaid: 0,
      paymentMethod: subscription.paymentMethod as PaymentMethod,
      periodStart: period.start,
      periodEnd: period.end,
      dueDate: new Date(now.getTime() + invoiceDueDays * 86_400_000),
      paidAt: paidNow ? now : null,
      createdAt: now,
    },
    skipDuplicates: true,
  })
  if (inserted.count === 0) {
    return { invoice: await db.invoice.findUniqueOrThrow({ where: { subscriptionId_periodStart: { subscriptionId: subscription.id, periodStart: period.start } } }), created: false }
  }
  await db.invoiceLine.createMany({ data: lines.map((line, position) => ({ id: createId('InvoiceLine'), invoiceId, position, ...line })) })
  await recordEvent(context, 'invoice.created', { id: invoiceId })
  if (paidNow) await recordEvent(context, 'invoice.paid', { id: invoiceId })
  return { invoice: await db.invoice.findUniqueOrThrow({ where: { id: invoiceId } }), created: true }
}

async function usageLines(
  db: Database,
  subscription: Subscription & { product: Product },
  currency: Currency,
  usagePeriod: { start: Date; end: Date },
): Promise<DraftLine[]> {
  const rows = await db.$queryRaw<{ priceId: string; meterId: string; slug: string; units: Prisma.Decimal; unitAmount: Prisma.Decimal; amount: Prisma.Decimal }[]>(Prisma.sql`
    SELECT price.id AS "priceId", meter.id AS "meterId", meter.slug,
      usage.units, price.amount AS "unitAmount", billing_cost(usage.units, price.amount, price.currency) AS amount
    FROM "Price" price
    JOIN "Meter" meter ON meter.id = price."meterId"
    CROSS JOIN LATERAL (
      SELECT CASE meter.aggregation WHEN 'count' THEN COUNT(*)::numeric ELSE COALESCE(SUM(event.quantity), 0) END AS units
      FROM "UsageEvent" event
      WHERE event."customerId" = ${subscription.customerId} AND event."meterId" = meter.id
        AND event."createdAt" >= ${usagePeriod.start} AND event."createdAt" < ${usagePeriod.end}
    ) usage
    WHERE price."productId" = ${subscription.productId} AND price.active AND price.model = 'metered'
      AND price."usageBillingMode" = 'subscription' AND price.currency = ${currency}::"Currency"
    ORDER BY price."createdAt", price.id`)
  return rows.map((row) => ({
    description: `${row.slug} usage`,
    priceId: row.priceId,
    meterId: row.meterId,
    quantity: new Prisma.Decimal(row.units),
    unitAmount: new Prisma.Decimal(row.unitAmount),
    amount: new Prisma.Decimal(row.amount),
  }))
}
