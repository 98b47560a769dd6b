import { DomainError } from '../../domain/DomainError'

// Calls to a PSP are made while a database transaction is open (a charge is created or removed, a
// refund asked, in the same commit as the resource), so each call in flight holds one of the
// process's database connections for as long as the PSP takes, up to the client's timeout. A PSP that
// hangs must not take every connection with it, and with them every other account's requests. So a
// process lets each account have at most `maxPixCallsInFlight` calls in flight; a further call waits
// at most `pixCallWaitMilliseconds` for one to finish, then answers `unavailable` (503, Retry-After)
// and its transaction rolls back: nothing half-done, and a hung PSP holds a bounded number of
// connections while everything else keeps its own.

export const maxPixCallsInFlight = 4
export const pixCallWaitMilliseconds = 1000

interface Gate {
  inFlight: number
  waiting: (() => void)[]
}

const gates = new Map<string, Gate>()

/** Takes one of the account's slots (waiting a little for one); the returned function gives it back, once. */
export async function enterPixCallGate(key: string): Promise<() => void> {
  let gate = gates.get(key)
  if (!gate) {
    gate = { inFlight: 0, waiting: [] }
    gates.set(key, gate)
  }
  const held = gate
  if (held.inFlight < maxPixCallsInFlight) {
    held.inFlight += 1
  } else {
    // A slot is handed over directly by the call that leaves, so inFlight never goes over the limit.
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        held.waiting.splice(held.waiting.indexOf(admit), 1)
        reject(new DomainError('unavailable', 'The PIX provider is slow to answer and has as many requests from this account as it may hold; try again shortly'))
      }, pixCallWaitMilliseconds)
      held.waiting.push(admit)
    })
  }
  let left = false
  return () => {
    if (left) return
    left = true
    const next = held.waiting.shift()
    if (next) return next()
    held.inFlight -= 1
    if (held.inFlight === 0 && gates.get(key) === held) gates.delete(key)
  }
}
