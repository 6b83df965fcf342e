import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail fills the last two). */
function ipv6Groups(address: string): string[] {
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const [head = '', tail] = address.split('::');
  const first = groups(head);
  const last = tail === undefined ? [] : groups(tail);
  return [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
}

/**
 * The unit that sign-in limits count for a client address (`request.ip`, which believes
 * `X-Forwarded-For` only from the proxies of `TRUST_PROXY`): an IPv4 address as it is, an
 * IPv4-mapped IPv6 address as its IPv4 form, and an IPv6 address as its /64 network, because one
 * host is commonly given a whole /64 and could otherwise change address for every attempt.
 */
export function addressBucket(ip: string): string {
  const address = ip.trim().toLowerCase().split('%')[0] ?? '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  const network = ipv6Groups(address)
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16));
  return `${network.join(':')}::/64`;
}
