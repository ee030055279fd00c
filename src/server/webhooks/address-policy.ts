import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may connect (docs/decisions/025, "No request forgery"): a public unicast address,
 * or one inside a network the operator lists in `WEBHOOK_ALLOW_NETWORKS` (CIDRs, `127.0.0.0/8`,
 * `10.1.0.0/16`, `fd00::/8`). Refused otherwise: loopback, private (RFC 1918), carrier-grade NAT,
 * link-local (so the cloud's metadata address, 169.254.169.254), unique-local, multicast,
 * unspecified, reserved and documentation ranges; an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`)
 * is judged as the IPv4 address it maps (ipaddr.js's `range()` names each range).
 */
export type AddressPolicy = (address: string) => boolean;

/**
 * Parses `WEBHOOK_ALLOW_NETWORKS`: CIDRs separated by commas or white space.
 * @returns the networks, or the first entry that is none (`{ invalid }`).
 */
export function parseAllowNetworks(value: string | undefined): { networks: [ipaddr.IPv4 | ipaddr.IPv6, number][] } | { invalid: string } {
  const networks: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of (value ?? '').split(/[\s,]+/).filter(Boolean)) {
    try {
      networks.push(ipaddr.parseCIDR(entry));
    } catch {
      return { invalid: entry };
    }
  }
  return { networks };
}

/** The address as ipaddr.js reads it, an IPv4-mapped IPv6 address as its IPv4 address; undefined when it is no address. */
function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const ip = ipaddr.parse(address);
  if (ip.kind() !== 'ipv6') return ip;
  const v6 = ip as ipaddr.IPv6;
  // `::ffff:a.b.c.d` (mapped) and the deprecated `::a.b.c.d` (compatible, RFC 4291 §2.5.5.1,
  // which ipaddr.js ranges as unicast): judged as the IPv4 address they carry.
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.parts.slice(0, 6).every((part) => part === 0)) return ipaddr.fromByteArray(v6.toByteArray().slice(12));
  return v6;
}

/**
 * The policy of {@link AddressPolicy} with the operator's `networks` allowed besides public addresses.
 * @param networks - from {@link parseAllowNetworks}.
 */
export function addressPolicy(networks: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][]): AddressPolicy {
  return (address) => {
    const ip = parsed(address);
    if (!ip) return false;
    if (networks.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) return true;
    return ip.range() === 'unicast';
  };
}
