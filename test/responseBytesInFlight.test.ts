import { expect, test } from 'vitest'
import { ResponseBytesInFlight } from '../src/domain/ResponseBytesInFlight'

// The process's budget of response bytes in flight is shared by every account: one account's large
// responses must not turn the others away.

test('one account holds at most half; another still gets its bytes; all is given back', () => {
  const budget = new ResponseBytesInFlight(100)
  expect(budget.tryTake(40, 'acct_a')).toBe(true)
  // A second large response of the same account would pass its half.
  expect(budget.tryTake(20, 'acct_a')).toBe(false)
  expect(budget.tryTake(10, 'acct_a')).toBe(true)
  // Another account finds the other half.
  expect(budget.tryTake(50, 'acct_b')).toBe(true)
  expect(budget.tryTake(1, 'acct_c')).toBe(false)
  expect(budget.inFlight).toBe(100)
  budget.give(40, 'acct_a')
  budget.give(10, 'acct_a')
  budget.give(50, 'acct_b')
  expect(budget.inFlight).toBe(0)
  expect(budget.tryTake(50, 'acct_a')).toBe(true)
})

test('a response alone always fits, whatever its size; 0 turns the budget off', () => {
  const budget = new ResponseBytesInFlight(100)
  expect(budget.tryTake(150, 'acct_a')).toBe(true)
  expect(budget.tryTake(1, 'acct_b')).toBe(false)
  budget.give(150, 'acct_a')
  expect(budget.tryTake(1, 'acct_b')).toBe(true)
  const unlimited = new ResponseBytesInFlight(0)
  for (let index = 0; index < 10; index += 1) expect(unlimited.tryTake(1_000_000, 'acct_a')).toBe(true)
})
