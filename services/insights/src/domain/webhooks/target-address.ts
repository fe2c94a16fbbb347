import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless the operator allows it: loopback, private (RFC 1918, unique
 * local), link-local (cloud metadata lives there), carrier-grade NAT, "this network", multicast and
 * reserved ranges, IPv4-mapped and NAT64 forms of those included.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const match = /^(?:::ffff:|64:ff9b::)(.+)$/.exec(lower);
  if (!match) return null;
  const tail = match[1];
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(tail);
  if (!hex) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True when an IP address is a public unicast one a webhook may be delivered to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !refused.check(address, 'ipv4');
  const inner = embeddedIpv4(address);
  if (inner) return isPublicAddress(inner);
  return !refused.check(address, 'ipv6');
}

export const TARGET_REFUSED = 'A URL do webhook aponta para um endereço local, privado ou de enlace local';
