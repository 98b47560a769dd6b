import type { Range } from './chooseRange'
import { h, pageLink } from './dom'
import { drawTable, figure, section, statusBadge } from './drawTable'
import { formatDate, formatDateTime, formatMoney } from './format'
import { runQuery } from './graphqlClient'
import { drawUsagePanels, loadUsageSeries, type Meter } from './renderOverview'

// One customer: who it is, its credit balances, subscriptions, usage per meter, ledger, invoices and
// transactions.

const customerQuery = `query DashboardCustomer($id: ID!) {
  customer(id: $id) {
    id name email externalId createdAt
    creditBalances { currency balance updatedAt }
    subscriptions(first: 20) { edges { node { id status currentPeriodStart currentPeriodEnd product { name } price { amount currency interval } } } }
    creditLedger(first: 20) { edges { node { id kind amount currency description createdAt } } }
    invoices(first: 20) { edges { node { id status total amountDue currency createdAt dueDate } } }
    transactions(first: 20) { edges { node { id status amount amountRefunded currency createdAt } } }
  }
  meters(first: 10) { edges { node { id name unit } } }
}`

interface CustomerAnswer {
  customer: {
    id: string
    name: string | null
    email: string | null
    externalId: string | null
    createdAt: string
    creditBalances: { currency: string; balance: string; updatedAt: string | null }[]
    subscriptions: { edges: { node: { id: string; status: string; currentPeriodStart: string; currentPeriodEnd: string; product: { name: string }; price: { amount: string; currency: string; interval: string | null } } }[] }
    creditLedger: { edges: { node: { id: string; kind: string; amount: string; currency: string; description: string; createdAt: string } }[] }
    invoices: { edges: { node: { id: string; status: string; total: string; amountDue: string; currency: string; createdAt: string; dueDate: string } }[] }
    transactions: { edges: { node: { id: string; status: string; amount: string; amountRefunded: string; currency: string; createdAt: string } }[] }
  }
  meters: { edges: { node: Meter }[] }
}

export async function renderCustomerPage(customerId: string, currency: string, range: Range): Promise<HTMLElement> {
  const data = await runQuery<CustomerAnswer>(customerQuery, { id: customerId })
  const customer = data.customer
  const meters = data.meters.edges.map((edge) => edge.node)
  const usage = await loadUsageSeries(meters, currency, range, customer.id)

  return h(
    'div',
    { class: 'customer', 'data-testid': 'customer-page' },
    h('p', { class: 'crumbs' }, pageLink('', '← Overview')),
    h('h1', { 'data-testid': 'customer-name' }, customer.name || customer.id),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Id'),
      h('dd', {}, customer.id),
      h('dt', {}, 'Email'),
      h('dd', { 'data-testid': 'customer-email' }, customer.email ?? '—'),
      h('dt', {}, 'External id'),
      h('dd', {}, customer.externalId ?? '—'),
      h('dt', {}, 'Customer since'),
      h('dd', {}, formatDate(customer.createdAt)),
    ),
    section(
      'Credit balances',
      customer.creditBalances.length === 0
        ? h('p', { class: 'empty' }, 'No credits have moved.')
        : h('div', { class: 'figures' }, ...customer.creditBalances.map((balance) => figure(balance.currency, formatMoney(balance.balance, balance.currency), `balance-${balance.currency}`, balance.updatedAt ? `as of ${formatDateTime(balance.updatedAt)}` : undefined))),
    ),
    section(
      'Subscriptions',
      drawTable(
        'customer-subscriptions',
        ['Product', 'Status', 'Price', 'Current period'],
        customer.subscriptions.edges.map(({ node }) => ({
          id: node.id,
          cells: [node.product.name, statusBadge(node.status), `${formatMoney(node.price.amount, node.price.currency)}${node.price.interval ? ` / ${node.price.interval}` : ''}`, `${formatDate(node.currentPeriodStart)} – ${formatDate(node.currentPeriodEnd)}`],
        })),
        'No subscriptions.',
      ),
    ),
    section('Usage', ...(meters.length === 0 ? [h('p', { class: 'empty' }, 'No meters yet.')] : drawUsagePanels(meters, usage, range, 'customer-usage'))),
    section(
      'Credit ledger',
      drawTable(
        'customer-ledger',
        ['When', 'Kind', 'Amount', 'Description'],
        customer.creditLedger.edges.map(({ node }) => ({ id: node.id, cells: [formatDateTime(node.createdAt), node.kind, formatMoney(node.amount, node.currency), node.description] })),
        'No ledger entries.',
      ),
    ),
    section(
      'Invoices',
      drawTable(
        'customer-invoices',
        ['Invoice', 'Status', 'Total', 'Amount due', 'Due date'],
        customer.invoices.edges.map(({ node }) => ({
          id: node.id,
          cells: [node.id, statusBadge(node.status), formatMoney(node.total, node.currency), formatMoney(node.amountDue, node.currency), formatDate(node.dueDate)],
        })),
        'No invoices.',
      ),
    ),
    section(
      'Transactions',
      drawTable(
        'customer-transactions',
        ['Transaction', 'Status', 'Amount', 'Refunded', 'When'],
        customer.transactions.edges.map(({ node }) => ({
          id: node.id,
          cells: [node.id, statusBadge(node.status), formatMoney(node.amount, node.currency), formatMoney(node.amountRefunded, node.currency), formatDateTime(node.createdAt)],
        })),
        'No transactions.',
      ),
    ),
  )
}
