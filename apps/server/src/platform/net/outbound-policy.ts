import net from 'node:net';
import type { Db } from '../db/database';
import { readParam } from '../db/params';
import { embeddedIpv4, inV4Range, inV6Range } from './address-class';

/** The platform parameter listing the hosts and networks tenants' outbound calls may reach anyway. */
export const OUTBOUND_ALLOW_PARAM = 'security.outbound.allow';

type Network = { family: 4 | 6; prefix: string; bits: number };

/**
 * What the platform administrator allows beyond public addresses: exact host names (or
 * `*.suffix`), single addresses and CIDR networks. Entries that are none of these are ignored.
 */
export class OutboundPolicy {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly networks: Network[] = [];

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, '');
      if (!entry) continue;
      const [address = '', bitsText] = entry.split('/');
      const family = net.isIP(address);
      if (family) {
        const max = family === 4 ? 32 : 128;
        const bits = bitsText === undefined ? max : Number(bitsText);
        if (Number.isInteger(bits) && bits >= 0 && bits <= max && /^\d*$/.test(bitsText ?? ''))
          this.networks.push({ family: family === 6 ? 6 : 4, prefix: address, bits });
      } else if (entry.startsWith('*.') && /^[a-z0-9.-]+$/.test(entry.slice(2))) {
        this.suffixes.push(entry.slice(1));
      } else if (/^[a-z0-9.-]+$/.test(entry)) {
        this.names.add(entry.replace(/\.$/, ''));
      }
    }
  }

  /** Parses the parameter's text: entries separated by commas, semicolons or white space. */
  static parse(text: string | undefined): OutboundPolicy {
    return new OutboundPolicy((text ?? '').split(/[\s,;，]+/));
  }

  /** A host name the administrator named: every address it resolves to is allowed. */
  allowsHost(host: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.names.has(name) || this.suffixes.some((s) => name.endsWith(s));
  }

  /** An address inside an allowed network (an IPv4-mapped IPv6 address counts as its IPv4 one). */
  allowsAddress(address: string): boolean {
    const plain = address.replace(/%.*$/, '');
    const family = net.isIP(plain);
    const v4 = family === 4 ? plain : family === 6 ? embeddedIpv4(plain) : undefined;
    return this.networks.some((n) =>
      n.family === 4
        ? v4 !== undefined && inV4Range(v4, n.prefix, n.bits)
        : family === 6 && inV6Range(plain, n.prefix, n.bits),
    );
  }
}

/** The platform's current policy, read on every call so a change applies at once on every process. */
export async function outboundPolicy(db: Db): Promise<OutboundPolicy> {
  return OutboundPolicy.parse(await readParam(db, OUTBOUND_ALLOW_PARAM));
}
