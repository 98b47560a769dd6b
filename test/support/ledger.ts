import pg from 'pg'

/** The ledger's sum and the stored balance for one customer and currency, read straight from PostgreSQL. */
export async function readLedger(databaseUrl: string, customerId: string, currency = 'USDC'): Promise<{ ledgerSum: string; balance: string; entries: number }> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const ledger = await client.query<{ sum: string | null; count: string }>(
      'SELECT COALESCE(SUM(amount), 0)::numeric(38,6)::text AS sum, COUNT(*)::text AS count FROM "CreditLedgerEntry" WHERE "customerId" = $1 AND currency = $2',
      [customerId, currency],
    )
    const balance = await client.query<{ balance: string }>(
      'SELECT balance::numeric(38,6)::text AS balance FROM "CreditBalance" WHERE "customerId" = $1 AND currency = $2',
      [customerId, currency],
    )
    return { ledgerSum: ledger.rows[0]!.sum ?? '0.000000', balance: balance.rows[0]?.balance ?? '0.000000', entries: Number(ledger.rows[0]!.count) }
  } finally {
    await client.end()
  }
}
