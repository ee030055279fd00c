import ipaddr from 'ipaddr.js';

/**
 * The network a client address is counted under for per-address limits: an IPv4
 * address as it is, an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`) as its IPv4 address, and
 * any other IPv6 address as its /64 — one subscriber's allocation (RFC 6177), which a client can
 * walk through freely. The same grouping `@fastify/rate-limit` applies to its own counts.
 * @param ip - Fastify's `request.ip` (after `TRUST_PROXY`).
 * @returns `203.0.113.9`, or `2001:db8:0:9::/64`.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip.toLowerCase();
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
