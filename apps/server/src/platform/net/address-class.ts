import net from 'node:net';
import type { BilingualText } from '@mes/contracts';

/**
 * Address classes an outbound call configured by a tenant must not reach unless the platform
 * allows them (docs/outbound.md): the server itself, its private networks and the cloud
 * metadata services, which would hand out the host's credentials.
 */
export type AddressClass =
  | 'loopback'
  | 'unspecified'
  | 'link-local'
  | 'private'
  | 'shared'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

/** How each class is named in the refusal message. */
export const ADDRESS_CLASS_LABELS: Record<AddressClass, BilingualText> = {
  loopback: { zh: '本机地址', en: 'loopback address' },
  unspecified: { zh: '未指定地址', en: 'unspecified address' },
  'link-local': { zh: '链路本地地址', en: 'link-local address' },
  private: { zh: '内网地址', en: 'private address' },
  shared: { zh: '运营商共享地址', en: 'carrier-grade shared address' },
  metadata: { zh: '云服务器元数据地址', en: 'cloud metadata address' },
  multicast: { zh: '组播地址', en: 'multicast address' },
  broadcast: { zh: '广播地址', en: 'broadcast address' },
  reserved: { zh: '保留地址', en: 'reserved address' },
};

/** A network (`prefix/bits`) and the class of every address in it. */
type AddressRange = readonly [prefix: string, bits: number, cls: AddressClass];

/** Most specific first: the metadata addresses sit inside link-local and shared space. */
const V4_RANGES: readonly AddressRange[] = [
  ['169.254.169.254', 32, 'metadata'],
  ['100.100.100.200', 32, 'metadata'],
  ['255.255.255.255', 32, 'broadcast'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_RANGES: readonly AddressRange[] = [
  ['fd00:ec2::254', 128, 'metadata'],
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['fc00::', 7, 'private'],
  ['ff00::', 8, 'multicast'],
  ['100::', 64, 'reserved'],
  ['2001::', 32, 'reserved'],
];

export function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const numberToIpv4 = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');

/** The 128 bits of an IPv6 address (zone id dropped); the address must be valid. */
export function ipv6ToBigInt(address: string): bigint {
  let text = address.replace(/%.*$/, '');
  // A trailing dotted quad (`::ffff:1.2.3.4`) is the last 32 bits.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad) {
    const n = ipv4ToNumber(quad);
    text = `${text.slice(0, -quad.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array<string>(zeros).fill('0'), ...tailParts];
  return parts.reduce((acc, part) => (acc << 16n) | BigInt(Number.parseInt(part || '0', 16)), 0n);
}

export function inV4Range(address: string, prefix: string, bits: number): boolean {
  if (bits === 0) return true;
  const shift = 32 - bits;
  return Math.floor(ipv4ToNumber(address) / 2 ** shift) === Math.floor(ipv4ToNumber(prefix) / 2 ** shift);
}

export function inV6Range(address: string, prefix: string, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return ipv6ToBigInt(address) >> shift === ipv6ToBigInt(prefix) >> shift;
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that deliver to it: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`).
 */
export function embeddedIpv4(address: string): string | undefined {
  const n = ipv6ToBigInt(address);
  const low32 = Number(n & 0xffffffffn);
  if (n >> 32n === 0xffffn || (n >> 32n === 0n && n > 1n)) return numberToIpv4(low32);
  if (n >> 32n === 0x0064ff9b0000000000000000n) return numberToIpv4(low32);
  if (n >> 112n === 0x2002n) return numberToIpv4(Number((n >> 80n) & 0xffffffffn));
  return undefined;
}

/** The class of an IP address the platform refuses by default, or undefined for a public one. */
export function forbiddenClass(address: string): AddressClass | undefined {
  const family = net.isIP(address.replace(/%.*$/, ''));
  if (family === 4) return V4_RANGES.find(([prefix, bits]) => inV4Range(address, prefix, bits))?.[2];
  if (family !== 6) return 'reserved';
  const v4 = embeddedIpv4(address);
  if (v4) return forbiddenClass(v4);
  return V6_RANGES.find(([prefix, bits]) => inV6Range(address, prefix, bits))?.[2];
}
