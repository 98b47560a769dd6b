import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { DomainError } from './DomainError'
import { isPublicAddress } from './isPublicAddress'

/** Answers a host name with its addresses (all of them), as `dns.lookup` does; a parameter so that tests can answer as a hostile DNS would. */
export type HostResolver = (host: string) => Promise<{ address: string; family: number }[]>

export const systemHostResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true })

export interface Destination {
  /** The address to connect to: the one that was checked, so a second DNS answer cannot swap it (rebinding). */
  address: string
  family: 4 | 6
}

/**
 * Where a URL the service calls for an account points (a webhook endpoint, a PSP's API). On live
 * accounts every address the name resolves to must be public (isPublicAddress); a name with any
 * private answer is refused whole, so that no choice among its answers can reach a private one. Test
 * accounts may call anywhere (a receiver or a simulator on localhost).
 */
export async function resolveDestination(url: URL, mode: 'test' | 'live', param = 'url', resolveHost: HostResolver = systemHostResolver): Promise<Destination> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: { address: string; family: number }[]
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }]
  else if (mode === 'live' && (host === 'localhost' || host.endsWith('.localhost'))) addresses = [{ address: '127.0.0.1', family: 4 }]
  else {
    try {
      addresses = await resolveHost(host)
    } catch {
      throw new DomainError('validation_error', `${param}'s host ${host} does not resolve`, { param })
    }
  }
  const first = addresses[0]
  if (!first) throw new DomainError('validation_error', `${param}'s host ${host} does not resolve`, { param })
  if (mode === 'live' && !addresses.every((candidate) => isPublicAddress(candidate.address))) {
    throw new DomainError('validation_error', `${param} must not point to a loopback, private, link-local or otherwise internal address on a live account`, { param })
  }
  return { address: first.address, family: first.family === 6 ? 6 : 4 }
}
