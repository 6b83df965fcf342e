import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { ADDRESS_CLASS_LABELS, forbiddenClass } from './address-class';
import type { BilingualText } from '@mes/contracts';
import { OUTBOUND_ALLOW_PARAM, type OutboundPolicy } from './outbound-policy';

export const OutboundMessages = {
  refused: (host: string, what: BilingualText) => ({
    zh: `不允许访问地址 ${host}(${what.zh});如确需访问,请平台管理员在参数 ${OUTBOUND_ALLOW_PARAM} 中放行`,
    en: `The address ${host} may not be reached (${what.en}); if it must be, the platform administrator can allow it in the parameter ${OUTBOUND_ALLOW_PARAM}`,
  }),
  badUrl: (url: string) => ({ zh: `地址格式不正确: ${url}`, en: `The address is malformed: ${url}` }),
  badScheme: (url: string) => ({
    zh: `只支持 http:// 或 https:// 地址: ${url}`,
    en: `Only http:// or https:// addresses are supported: ${url}`,
  }),
  unresolved: (host: string) => ({ zh: `无法解析地址 ${host}`, en: `The address ${host} cannot be resolved` }),
} as const;

/** Names of cloud metadata services, refused by name whatever they resolve to. */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Why an outbound call was not made: a forbidden address, or a name that does not resolve. */
export class OutboundError extends Error {
  constructor(
    readonly kind: 'refused' | 'unresolved',
    readonly host: string,
    /** For the user, who may be shown it in either language. */
    readonly text: BilingualText,
  ) {
    super(text.zh);
  }
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** `[::1]` → `::1`, `Example.COM.` → `example.com`. */
export const plainHost = (host: string) =>
  host
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');

const refusal = (host: string, label: BilingualText) =>
  new OutboundError('refused', host, OutboundMessages.refused(host, label));

/**
 * Resolves `host` and checks every address it resolves to: one forbidden address refuses the
 * host (a name with a public and a private address could be connected to either). The result
 * is what the caller must connect to, so that a second resolution cannot swap in another address.
 */
export async function resolveOutbound(policy: OutboundPolicy, rawHost: string): Promise<CheckedAddress[]> {
  const host = plainHost(rawHost);
  if (!host) throw new OutboundError('unresolved', rawHost, OutboundMessages.badUrl(rawHost));
  const named = policy.allowsHost(host);
  if (METADATA_NAMES.has(host) && !named) throw refusal(host, ADDRESS_CLASS_LABELS.metadata);
  let addresses: CheckedAddress[];
  const literal = net.isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      const found = await dns.promises.lookup(host, { all: true, verbatim: true });
      addresses = found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch {
      throw new OutboundError('unresolved', host, OutboundMessages.unresolved(host));
    }
    if (!addresses.length) throw new OutboundError('unresolved', host, OutboundMessages.unresolved(host));
  }
  if (!named) {
    for (const { address } of addresses) {
      const cls = forbiddenClass(address);
      if (cls && !policy.allowsAddress(address)) throw refusal(host, ADDRESS_CLASS_LABELS[cls]);
    }
  }
  return addresses;
}

/** The host of an http(s) URL, parsed the way the HTTP client will parse it. */
export function httpUrlOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new OutboundError('unresolved', text, OutboundMessages.badUrl(text.slice(0, 200)));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError('refused', url.hostname, OutboundMessages.badScheme(text.slice(0, 200)));
  return url;
}

/**
 * The check a configuration gets when it is saved: a forbidden address is refused with the same
 * message a call would get. A name that does not resolve from here is let through (it may be a
 * typo the first call will report, or resolve later); only a known forbidden address is refused.
 */
export async function refuseForbiddenUrl(policy: OutboundPolicy, text: string): Promise<void> {
  const url = httpUrlOf(text);
  try {
    await resolveOutbound(policy, url.hostname);
  } catch (e) {
    if (e instanceof OutboundError && e.kind === 'unresolved') return;
    throw e;
  }
}

type LookupCallback = Parameters<LookupFunction>[2];

/**
 * A `lookup` for sockets (http.request, http.Agent): each connection resolves and checks its
 * host and is then given exactly the addresses that were checked.
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolveOutbound(policy, hostname).then(
      (checked) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = wanted ? checked.filter((a) => a.family === wanted) : checked;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`no usable address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        } else if (options.all) {
          (callback as unknown as (err: null, addresses: CheckedAddress[]) => void)(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/**
 * Where a configured URL sends what it is given (scheme, host, port), to tell whether an edit
 * points a stored secret at a new address. Empty means the provider's documented default.
 */
export function destinationOf(text: unknown): string {
  const raw = typeof text === 'string' ? text.trim() : '';
  if (!raw) return '';
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}`.toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}
