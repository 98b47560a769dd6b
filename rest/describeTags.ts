// Operations are tagged with the resource their path starts with (`/v1/customers/{customerId}/credits`
// is `customers`), so generated clients group them; the sandbox helpers share one tag.

const tagDescriptions: Record<string, string> = {
  customers: 'Customers, with their credit balances and entitlements',
  products: 'Products and their prices',
  usage: 'Meters and usage events',
  access: 'Access checks, and the atomic check-and-debit (extension)',
  checkout: 'Checkout sessions',
  transactions: 'Payments, and their refunds (extension)',
  subscriptions: 'Subscriptions and their state changes',
  entitlements: 'Entitlement checks',
  invoices: 'Invoices',
  events: 'Events and their redelivery (extension)',
  webhook_endpoints: 'Webhook endpoints and their delivery attempts (extension)',
  test_helpers: 'Sandbox helpers: test accounts only (extension)',
}

export function tagOfPath(path: string): string {
  const resource = path.split('/')[2]
  if (!resource) throw new Error(`${path} names no resource`)
  return resource
}

/** The document's `tags`: each tag used, in order of first use, with its description. */
export function describeTags(tags: Iterable<string>): { name: string; description?: string }[] {
  return [...new Set(tags)].map((name) => ({ name, ...(tagDescriptions[name] ? { description: tagDescriptions[name] } : {}) }))
}
