import type { DomainContext } from '../../domain/DomainContext'
import type { Currency } from '../../domain/money'
import { computeRecurringRevenue } from '../../reporting/computeRecurringRevenue'
import { countSubscriptionMovements, countSubscriptionsByStatus, type StatusCount, type SubscriptionMovement } from '../../reporting/countSubscriptions'
import { listTopCustomers, maxTopCustomers, type CustomerTotal } from '../../reporting/listTopCustomers'
import { checkReportingRange, estimateBucketCount, maxBuckets, type Bucket, type ReportingRange } from '../../reporting/reportingRange'
import type { AmountPoint } from '../../reporting/summarizeRevenue'
import { summarizeRevenue } from '../../reporting/summarizeRevenue'
import { summarizeRecurringRevenue } from '../../reporting/summarizeRecurringRevenue'
import { sumCreditBalances, type CreditPosition } from '../../reporting/sumCreditBalances'
import { sumOpenInvoices, type OpenInvoiceTotals } from '../../reporting/sumOpenInvoices'
import { summarizeUsageSeries, type QuantityPoint } from '../../reporting/summarizeUsageSeries'
import { builder } from '../builder'
import { requireCaller } from '../GraphQLContext'
import { loadLinkedRecord } from '../loadLinks'
import type { CostExtensions } from '../measureCost'
import { CustomerType } from './Customer'
import { CurrencyEnum } from './enums'

// Aggregates for dashboards, each computed by PostgreSQL when (and only when) it is selected.

interface MetricsScope {
  domain: DomainContext
  currency: Currency
  range: ReportingRange
}

const buckets = ['hour', 'day', 'week', 'month'] as const
const MetricsBucketEnum = builder.enumType('MetricsBucket', { values: buckets })
const isBucket = (value: string): value is Bucket => (buckets as readonly string[]).includes(value)
const TopCustomersByEnum = builder.enumType('TopCustomersBy', { values: ['revenue', 'usage'] as const })

const AmountPointType = builder.objectRef<AmountPoint>('AmountPoint').implement({
  fields: (t) => ({
    start: t.expose('start', { type: 'DateTime', description: 'The bucket\'s start (UTC).' }),
    amount: t.exposeString('amount', { description: 'Decimal string in the currency.' }),
  }),
})

const QuantityPointType = builder.objectRef<QuantityPoint>('QuantityPoint').implement({
  fields: (t) => ({ start: t.expose('start', { type: 'DateTime' }), quantity: t.exposeString('quantity', { description: 'Exact decimal string.' }) }),
})

const StatusCountType = builder.objectRef<StatusCount>('SubscriptionStatusCount').implement({
  fields: (t) => ({ status: t.exposeString('status'), count: t.exposeInt('count') }),
})

const SubscriptionMovementType = builder.objectRef<SubscriptionMovement>('SubscriptionMovement').implement({
  fields: (t) => ({ start: t.expose('start', { type: 'DateTime' }), created: t.exposeInt('created'), canceled: t.exposeInt('canceled') }),
})

const CustomerTotalType = builder.objectRef<CustomerTotal>('CustomerTotal').implement({
  fields: (t) => ({
    customerId: t.exposeString('customerId'),
    customer: t.field({ type: CustomerType, nullable: true, scopes: ['read'], resolve: (parent, _args, context) => loadLinkedRecord(context, 'customer', parent.customerId) }),
    total: t.exposeString('total', { description: 'Revenue in the currency, or usage in the meter\'s unit.' }),
  }),
})

const CreditPositionType = builder.objectRef<CreditPosition>('CreditPosition').implement({
  fields: (t) => ({
    liabilities: t.exposeString('liabilities', { description: 'Sum of positive credit balances: what the account owes its customers.' }),
    debts: t.exposeString('debts', { description: 'Sum of negative credit balances (zero or negative).' }),
  }),
})

const OpenInvoiceTotalsType = builder.objectRef<OpenInvoiceTotals>('OpenInvoiceTotals').implement({
  fields: (t) => ({
    open: t.exposeString('open'),
    openCount: t.exposeInt('openCount'),
    overdue: t.exposeString('overdue', { description: 'Open invoices past their due date.' }),
    overdueCount: t.exposeInt('overdueCount'),
  }),
})

/** The cost rule counts a series as one item per bucket (measureCost.ts). */
const series = { perBucket: true } satisfies CostExtensions

const MetricsType = builder.objectRef<MetricsScope>('Metrics').implement({
  description: 'Aggregates in one currency over [from, to), series cut into buckets (UTC).',
  fields: (t) => ({
    currency: t.field({ type: CurrencyEnum, resolve: (scope) => scope.currency }),
    from: t.field({ type: 'DateTime', resolve: (scope) => scope.range.from }),
    to: t.field({ type: 'DateTime', resolve: (scope) => scope.range.to }),
    revenue: t.field({
      type: [AmountPointType],
      description: 'Succeeded payments minus refunds, per bucket.',
      extensions: series,
      resolve: (scope) => summarizeRevenue(scope.domain, scope.currency, scope.range),
    }),
    mrr: t.string({ description: 'Monthly recurring revenue of live (active, past_due) subscriptions now; yearly prices count a twelfth.', resolve: async (scope) => (await computeRecurringRevenue(scope.domain, scope.currency)).mrr }),
    mrrSeries: t.field({
      type: [AmountPointType],
      description: 'MRR at the end of each bucket: subscriptions from the payment of their first invoice until canceled (one paused now counts in no bucket).',
      extensions: series,
      resolve: (scope) => summarizeRecurringRevenue(scope.domain, scope.currency, scope.range),
    }),
    arr: t.string({ description: 'Twelve times MRR.', resolve: async (scope) => (await computeRecurringRevenue(scope.domain, scope.currency)).arr }),
    subscriptionsByStatus: t.field({ type: [StatusCountType], description: 'Now, every status listed.', resolve: (scope) => countSubscriptionsByStatus(scope.domain, scope.currency) }),
    subscriptionMovements: t.field({
      type: [SubscriptionMovementType],
      description: 'Subscriptions created and canceled per bucket.',
      extensions: series,
      resolve: (scope) => countSubscriptionMovements(scope.domain, scope.currency, scope.range),
    }),
    usage: t.field({
      type: [QuantityPointType],
      description: 'A meter\'s usage per bucket, of every customer or of one.',
      extensions: series,
      args: { meterId: t.arg.id({ required: true }), customerId: t.arg.id({ required: false }) },
      resolve: (scope, args) => summarizeUsageSeries(scope.domain, String(args.meterId), args.customerId ? String(args.customerId) : null, scope.range),
    }),
    topCustomers: t.field({
      type: [CustomerTotalType],
      description: `Customers with the most revenue (in the currency) or usage (of meterId) in the range; limit 1 to ${maxTopCustomers}.`,
      args: { by: t.arg({ type: TopCustomersByEnum, required: true }), meterId: t.arg.id({ required: false }), limit: t.arg.int({ required: false, defaultValue: 10 }) },
      extensions: { listSize: (args) => (typeof args.limit === 'number' ? Math.min(args.limit, maxTopCustomers) : maxTopCustomers) } satisfies CostExtensions,
      resolve: (scope, args) =>
        listTopCustomers(scope.domain, { by: args.by, currency: scope.currency, meterId: args.meterId ? String(args.meterId) : null, limit: args.limit ?? 10 }, scope.range),
    }),
    credits: t.field({ type: CreditPositionType, description: 'Credit balances now.', resolve: (scope) => sumCreditBalances(scope.domain, scope.currency) }),
    invoices: t.field({ type: OpenInvoiceTotalsType, description: 'Open and overdue invoices now.', resolve: (scope) => sumOpenInvoices(scope.domain, scope.currency) }),
  }),
})

const defaultRangeDays = 30

builder.queryField('metrics', (t) =>
  t.field({
    type: MetricsType,
    description: `Aggregates for dashboards in one currency; the range defaults to the last ${defaultRangeDays} days by the account's clock.`,
    scopes: ['read'],
    args: {
      currency: t.arg({ type: CurrencyEnum, required: true }),
      from: t.arg({ type: 'DateTime', required: false }),
      to: t.arg({ type: 'DateTime', required: false }),
      bucket: t.arg({ type: MetricsBucketEnum, required: false, defaultValue: 'day' }),
    },
    // Before anything runs, the series are counted by the buckets the range will have (by the server's
    // clock: an account's clock only moves the range, not its length unless one end is given).
    extensions: {
      seriesBuckets: (args) => {
        const to = args.to === undefined || args.to === null ? new Date() : new Date(String(args.to))
        const from = args.from === undefined || args.from === null ? new Date(to.getTime() - defaultRangeDays * 86_400_000) : new Date(String(args.from))
        const bucket = typeof args.bucket === 'string' && isBucket(args.bucket) ? args.bucket : 'day'
        return Math.min(estimateBucketCount({ from, to, bucket }), maxBuckets)
      },
    } satisfies CostExtensions,
    resolve: (_root, args, context) => {
      const domain = requireCaller(context)
      const to = args.to ?? domain.clock.now()
      const from = args.from ?? new Date(to.getTime() - defaultRangeDays * 86_400_000)
      return { domain, currency: args.currency, range: checkReportingRange({ from, to, bucket: args.bucket ?? 'day' }) }
    },
  }),
)
