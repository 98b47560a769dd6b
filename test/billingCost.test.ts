import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formatAmount } from '../src/domain/money'
import { createTestDatabase } from './support/testDatabase'

// A usage cost is units × unit price rounded half-up to the currency's smallest unit (BRL 2 decimals,
// USDC 6). The rule lives in one place, the database function billing_cost (every path that charges
// usage calls it); amounts leave the service through formatAmount, which rounds the same way.

let client: pg.Client
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() })
  await client.connect()
})
afterAll(async () => {
  await client.end()
})

async function cost(units: string, unitAmount: string, currency: 'BRL' | 'USDC'): Promise<string> {
  const result = await client.query<{ cost: string }>('SELECT billing_cost($1::numeric, $2::numeric, $3::"Currency")::text AS cost', [units, unitAmount, currency])
  return result.rows[0]!.cost
}

describe('billing_cost rounds half-up to the smallest unit', () => {
  test.each([
    // [units, unit amount, currency, cost]
    ['1', '0.005', 'BRL', '0.01'],
    ['1', '0.004999999999', 'BRL', '0.00'],
    ['3', '0.015', 'BRL', '0.05'], // 0.045 → 0.05
    ['1', '0.025', 'BRL', '0.03'], // half-up, not half-even
    ['0.5', '0.01', 'BRL', '0.01'], // 0.005
    ['0.499999999999', '0.01', 'BRL', '0.00'],
    ['7', '49.90', 'BRL', '349.30'],
    ['1', '0.0000005', 'USDC', '0.000001'],
    ['1', '0.0000004999', 'USDC', '0.000000'],
    ['0.5', '0.000001', 'USDC', '0.000001'],
    ['0.000000000001', '0.5', 'USDC', '0.000000'],
    ['2.5', '0.000003', 'USDC', '0.000008'], // 0.0000075 → 0.000008
    ['0.000001', '0.5', 'USDC', '0.000001'], // 0.0000005
    ['1000000000000', '0.000001', 'USDC', '1000000.000000'],
  ] as const)('%s × %s %s = %s', async (units, unitAmount, currency, expected) => {
    expect(await cost(units, unitAmount, currency)).toBe(expected)
  })

  test('huge values stay exact: 10^12 units at a 24-digit price, and 12-decimal quantities', async () => {
    expect(await cost('1000000000000', '999999999999999999999999.99', 'BRL')).toBe('999999999999999999999999990000000000.00')
    expect(await cost('999999999999.999999999999', '999999999999999999999999.999999', 'USDC')).toBe('999999999999999999999998999999000000.000000')
    expect(await cost('123456789012.345678901234', '0.01', 'BRL')).toBe('1234567890.12')
    expect(await cost('123456789012.345678901235', '0.01', 'BRL')).toBe('1234567890.12')
    expect(await cost('123456789012.5', '0.01', 'BRL')).toBe('1234567890.13')
  })

  test('zero units cost zero', async () => {
    expect(await cost('0', '12.34', 'BRL')).toBe('0.00')
  })
})

describe('formatAmount rounds half-up to the currency decimals', () => {
  test.each([
    ['0.005', 'BRL', '0.01'],
    ['0.004999', 'BRL', '0.00'],
    ['0.025', 'BRL', '0.03'],
    ['29.9', 'BRL', '29.90'],
    ['0.0000005', 'USDC', '0.000001'],
    ['0.00000049', 'USDC', '0.000000'],
    ['10', 'USDC', '10.000000'],
    ['999999999999999999999999.995', 'BRL', '1000000000000000000000000.00'],
    ['999999999999999999999999999999.9999995', 'USDC', '1000000000000000000000000000000.000000'],
  ] as const)('%s %s → %s', (amount, currency, expected) => {
    expect(formatAmount(amount, currency)).toBe(expected)
  })
})
