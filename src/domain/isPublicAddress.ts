import { BlockList, isIPv4, isIPv6 } from 'node:net'

// Addresses the service must never call for a live account, a webhook or a PSP (server-side request
// forgery): this host, the private networks it may sit in, link-local (cloud metadata at
// 169.254.169.254), unique-local, unspecified, multicast, carrier-grade NAT and reserved ranges.
const refused = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6')
}

/** True for an address the service may call for a live account. Anything not an IP address is false. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !refused.check(address, 'ipv4')
  if (!isIPv6(address)) return false
  const bytes = ipv6Bytes(address)
  const embedded = embeddedIPv4(bytes)
  if (embedded !== undefined) return isPublicAddress(embedded)
  return !refused.check(address, 'ipv6')
}

/**
 * The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) or NAT64
 * (64:ff9b::a.b.c.d) IPv6 address: each reaches that IPv4 address, so that one decides.
 */
function embeddedIPv4(bytes: number[]): string | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0)
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff
  const compatible = zeros(0, 12) && !zeros(12, 16)
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)
  return mapped || compatible || nat64 ? bytes.slice(12).join('.') : undefined
}

function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, '')
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number)
    text = text.slice(0, -dotted[1]!.length) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
  return groups.flatMap((group) => {
    const value = parseInt(group, 16)
    return [value >> 8, value & 0xff]
  })
}
