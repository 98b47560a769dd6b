import { randomUUID } from 'node:crypto'
import pg from 'pg'

/**
 * `count` active subscriptions whose period ended ten days ago, written with SQL (fast enough for
 * thousands): each should be renewed exactly once by the next billing cycle. Returns the account id.
 */
export async function seedDueSubscriptions(databaseUrl: string, count: number): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const tag = randomUUID().replaceAll('-', '').slice(0, 12)
  const accountId = `acct_due${tag}`
  try {
    await client.query('BEGIN')
    await client.query(`INSERT INTO "Account" (id, name, mode) VALUES ($1, $2, 'test')`, [accountId, `due-${tag}`])
    await client.query(
      `INSERT INTO "Product" (id, "accountId", name, type, status, "createdAt", "updatedAt") VALUES ($1, $2, 'Due plan', 'subscription', 'active', now(), now())`,
      [`prod_due${tag}`, accountId],
    )
    await client.query(
      `INSERT INTO "Price" (id, "accountId", "productId", amount, currency, model, interval, active, "createdAt", "updatedAt")
       VALUES ($1, $2, $3, 1, 'USDC', 'subscription', 'month', true, now(), now())`,
      [`price_due${tag}`, accountId, `prod_due${tag}`],
    )
    await client.query(`UPDATE "Product" SET "defaultPriceId" = $1 WHERE id = $2`, [`price_due${tag}`, `prod_due${tag}`])
    await client.query(
      `INSERT INTO "Customer" (id, "accountId", name, "createdAt", "updatedAt")
       SELECT 'cus_due' || $2 || g, $1, 'due ' || g, now(), now() FROM generate_series(1, $3) g`,
      [accountId, tag, count],
    )
    await client.query(
      `INSERT INTO "Subscription" (id, "accountId", "customerId", "productId", "priceId", status, "paymentMethod", "billingAnchor", "currentPeriodStart", "currentPeriodEnd", "createdAt")
       SELECT 'sub_due' || $2 || g, $1, 'cus_due' || $2 || g, $4, $5, 'active', 'usdc_pull',
         now() - interval '40 days', now() - interval '40 days', (now() - interval '40 days') + interval '1 month', now() - interval '40 days'
       FROM generate_series(1, $3) g`,
      [accountId, tag, count, `prod_due${tag}`, `price_due${tag}`],
    )
    await client.query('COMMIT')
  } finally {
    await client.end()
  }
  return accountId
}
