// Who the client is, for rate limits. The socket's peer unless that peer is a reverse proxy named
// in TRUSTED_PROXIES; then X-Forwarded-For is read from the right, skipping named proxies, and
// the first other address is the client. Whatever a client writes further left is never read,
// so a forged header gains nothing (ASVS 4.1.3).
import { BlockList, isIP } from 'node:net'
import { addressFamily } from '../config.ts'

/** `::ffff:192.0.2.1` and `192.0.2.1` are one client. */
function plain(address: string): string {
  const a = address.trim()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a)
  return mapped ? mapped[1]! : a
}

/** A function from the socket's peer address and X-Forwarded-For to the client's address. */
export function clientAddressResolver(trustedProxies: readonly string[]) {
  if (trustedProxies.length === 0)
    return (peer: string, _forwardedFor?: string | null) => plain(peer)
  const trusted = new BlockList()
  for (const entry of trustedProxies) {
    const [address = '', prefix] = entry.split('/')
    const family = addressFamily(address)
    if (!family) continue
    if (prefix === undefined) trusted.addAddress(address, family)
    else trusted.addSubnet(address, Number(prefix), family)
  }
  const isTrusted = (address: string) => {
    const family = addressFamily(address)
    return family !== undefined && trusted.check(address, family)
  }
  return (peer: string, forwardedFor?: string | null): string => {
    let client = plain(peer)
    if (!isTrusted(client) || !forwardedFor) return client
    const hops = forwardedFor.split(',').map(plain)
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!
      // A hop that is not an address was not written by a proxy we know: stop at the last good one.
      if (!addressFamily(hop)) return client
      client = hop
      if (!isTrusted(hop)) return hop
    }
    return client
  }
}

/**
 * The unit a per-address limit counts: an IPv4 address, or the /64 an IPv6 address belongs to
 * (one subscriber usually holds a whole /64, so counting single addresses would count nothing).
 */
export function addressGroup(address: string): string {
  const a = plain(address)
  if (isIP(a) !== 6) return a
  const [head = '', tail = ''] = a.split('::')
  const left = head ? head.split(':') : []
  const right = a.includes('::') ? (tail ? tail.split(':') : []) : []
  // An embedded IPv4 tail (64:ff9b::192.0.2.1) stands for two groups.
  const width = (parts: string[]) => parts.length + (parts.at(-1)?.includes('.') ? 1 : 0)
  const groups = a.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - width(left) - width(right))).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
