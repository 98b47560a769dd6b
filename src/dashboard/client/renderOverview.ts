import type { Range } from './chooseRange'
import { h, pageLink } from './dom'
import { drawBarChart } from './drawBarChart'
import { drawTable, figure, section, statusBadge } from './drawTable'
import { sumDecimals } from './decimals'
import { formatDate, formatDateTime, formatMoney } from './format'
import { runQuery } from './graphqlClient'

// The overview: headline figures, revenue, MRR and subscription movements over time, subscriptions by
// status, usage per meter, credits, top customers, the latest invoices and transactions, customers.

const overviewQuery = `query DashboardOverview($currency: Currency!, $from: DateTime!, $to: DateTime!, $bucket: MetricsBucket!) {
  metrics(currency: $currency, from: $from, to: $to, bucket: $bucket) {
    mrr arr
    revenue { start amount }
    mrrSeries { start amount }
    subscriptionsByStatus { status count }
    subscriptionMovements { start created canceled }
    credits { liabilities debts }
    invoices { open openCount overdue overdueCount }
    topCustomers(by: revenue, limit: 5) { customerId total customer { id name email } }
  }
  meters(first: 10) { edges { node { id name unit aggregation } } }
  invoices(first: 10) { edges { node { id status total amountDue currency createdAt dueDate customer { id name } } } }
  transactions(first: 10) { edges { node { id status amount currency createdAt customer { id name } } } }
  customers(first: 20) { edges { node { id name email externalId createdAt } } }
}`

interface CustomerReference {
  id: string
  name: string | null
  email?: string | null
}

interface Overview {
  metrics: {
    mrr: string
    arr: string
    revenue: { start: string; amount: string }[]
    mrrSeries: { start: string; amount: string }[]
    subscriptionsByStatus: { status: string; count: number }[]
    subscriptionMovements: { start: string; created: number; canceled: number }[]
    credits: { liabilities: string; debts: string }
    invoices: { open: string; openCount: number; overdue: string; overdueCount: number }
    topCustomers: { customerId: string; total: string; customer: CustomerReference | null }[]
  }
  meters: { edges: { node: Meter }[] }
  invoices: { edges: { node: { id: string; status: string; total: string; amountDue: string; currency: string; createdAt: string; dueDate: string; customer: CustomerReference } }[] }
  transactions: { edges: { node: { id: string; status: string; amount: string; currency: string; createdAt: string; customer: CustomerReference } }[] }
  customers: { edges: { node: { id: string; name: string | null; email: string | null; externalId: string | null; createdAt: string } }[] }
}

export interface Meter {
  id: string
  name: string
  unit: string
  aggregation?: string
}

export interface QuantityPoint {
  start: string
  quantity: string
}

/** One query with an aliased usage series per meter (optionally of one customer). */
export async function loadUsageSeries(meters: Meter[], currency: string, range: Range, customerId?: string): Promise<QuantityPoint[][]> {
  if (meters.length === 0) return []
  const meterVariables = meters.map((_, index) => `$meter${index}: ID!`).join(', ')
  const series = meters.map((_, index) => `usage${index}: usage(meterId: $meter${index}${customerId ? ', customerId: $customerId' : ''}) { start quantity }`).join('\n    ')
  const document = `query DashboardUsage($currency: Currency!, $from: DateTime!, $to: DateTime!, $bucket: MetricsBucket!, ${meterVariables}${customerId ? ', $customerId: ID!' : ''}) {
  metrics(currency: $currency, from: $from, to: $to, bucket: $bucket) {
    ${series}
  }
}`
  const variables: Record<string, unknown> = { currency, ...range, ...(customerId ? { customerId } : {}) }
  meters.forEach((meter, index) => (variables[`meter${index}`] = meter.id))
  const answer = await runQuery<{ metrics: Record<string, QuantityPoint[]> }>(document, variables)
  return meters.map((_, index) => answer.metrics[`usage${index}`] ?? [])
}

export function customerName(customer: CustomerReference | null, fallbackId: string): string {
  return customer?.name || customer?.email || customer?.id || fallbackId
}

export function drawUsagePanels(meters: Meter[], usage: QuantityPoint[][], range: Range, testIdPrefix: string): HTMLElement[] {
  return meters.map((meter, index) => {
    const points = usage[index] ?? []
    const total = sumDecimals(points.map((point) => point.quantity))
    return h(
      'div',
      { class: 'usage-meter', 'data-testid': `${testIdPrefix}-${meter.id}` },
      h('h3', {}, meter.name, ' ', h('span', { class: 'muted' }, `(${meter.unit})`)),
      h('p', {}, 'Total in range: ', h('strong', { 'data-testid': `${testIdPrefix}-total` }, total)),
      drawBarChart(points.map((point) => point.start), range.bucket, [{ name: meter.name, tone: 'primary', values: points.map((point) => point.quantity) }], `Usage of ${meter.name}`),
    )
  })
}

export async function renderOverview(currency: string, range: Range): Promise<HTMLElement> {
  const data = await runQuery<Overview>(overviewQuery, { currency, ...range })
  const meters = data.meters.edges.map((edge) => edge.node)
  const usage = await loadUsageSeries(meters, currency, range)
  const metrics = data.metrics
  const revenueTotal = sumDecimals(metrics.revenue.map((point) => point.amount))
  const starts = metrics.revenue.map((point) => point.start)

  return h(
    'div',
    { class: 'overview', 'data-testid': 'overview' },
    h(
      'div',
      { class: 'figures' },
      figure('MRR', formatMoney(metrics.mrr, currency), 'mrr', 'live subscriptions now'),
      figure('ARR', formatMoney(metrics.arr, currency), 'arr'),
      figure('Revenue in range', formatMoney(revenueTotal, currency), 'revenue-total', 'payments minus refunds'),
      figure('Credit liabilities', formatMoney(metrics.credits.liabilities, currency), 'credit-liabilities', 'positive balances'),
      figure('Credit debts', formatMoney(metrics.credits.debts, currency), 'credit-debts', 'negative balances'),
      figure('Open invoices', formatMoney(metrics.invoices.open, currency), 'open-invoices', `${metrics.invoices.openCount} open`),
      figure('Overdue invoices', formatMoney(metrics.invoices.overdue, currency), 'overdue-invoices', `${metrics.invoices.overdueCount} overdue`),
    ),
    section('Revenue', drawBarChart(starts, range.bucket, [{ name: 'Revenue', tone: 'primary', values: metrics.revenue.map((point) => point.amount) }], `Revenue in ${currency}`)),
    section(
      'MRR',
      h(
        'div',
        { 'data-testid': 'mrr-series' },
        drawBarChart(metrics.mrrSeries.map((point) => point.start), range.bucket, [{ name: 'MRR', tone: 'primary', values: metrics.mrrSeries.map((point) => point.amount) }], `MRR in ${currency} at the end of each period`),
      ),
    ),
    section(
      'Subscriptions',
      h(
        'ul',
        { class: 'status-counts' },
        ...metrics.subscriptionsByStatus.map((entry) => h('li', {}, statusBadge(entry.status), ' ', h('strong', { 'data-testid': `subscriptions-${entry.status}` }, String(entry.count)))),
      ),
      drawBarChart(
        metrics.subscriptionMovements.map((point) => point.start),
        range.bucket,
        [
          { name: 'created', tone: 'primary', values: metrics.subscriptionMovements.map((point) => String(point.created)) },
          { name: 'canceled', tone: 'secondary', values: metrics.subscriptionMovements.map((point) => String(point.canceled)) },
        ],
        'Subscriptions created and canceled',
      ),
    ),
    section('Usage per meter', ...(meters.length === 0 ? [h('p', { class: 'empty' }, 'No meters yet.')] : drawUsagePanels(meters, usage, range, 'usage'))),
    section(
      'Top customers by revenue',
      drawTable(
        'top-customers',
        ['Customer', 'Revenue'],
        metrics.topCustomers.map((entry) => ({ id: entry.customerId, cells: [pageLink(`customers/${entry.customerId}`, customerName(entry.customer, entry.customerId)), formatMoney(entry.total, currency)] })),
        'No revenue in this range.',
      ),
    ),
    section(
      'Latest invoices',
      drawTable(
        'latest-invoices',
        ['Invoice', 'Customer', 'Status', 'Total', 'Amount due', 'Created'],
        data.invoices.edges.map(({ node }) => ({
          id: node.id,
          cells: [node.id, pageLink(`customers/${node.customer.id}`, customerName(node.customer, node.customer.id)), statusBadge(node.status), formatMoney(node.total, node.currency), formatMoney(node.amountDue, node.currency), formatDate(node.createdAt)],
        })),
        'No invoices yet.',
      ),
    ),
    section(
      'Latest transactions',
      drawTable(
        'latest-transactions',
        ['Transaction', 'Customer', 'Status', 'Amount', 'When'],
        data.transactions.edges.map(({ node }) => ({
          id: node.id,
          cells: [node.id, pageLink(`customers/${node.customer.id}`, customerName(node.customer, node.customer.id)), statusBadge(node.status), formatMoney(node.amount, node.currency), formatDateTime(node.createdAt)],
        })),
        'No transactions yet.',
      ),
    ),
    section(
      'Customers',
      drawTable(
        'customers',
        ['Name', 'Email', 'External id', 'Since'],
        data.customers.edges.map(({ node }) => ({
          id: node.id,
          cells: [pageLink(`customers/${node.id}`, node.name || node.id), node.email ?? '', node.externalId ?? '', formatDate(node.createdAt)],
        })),
        'No customers yet.',
      ),
    ),
  )
}
