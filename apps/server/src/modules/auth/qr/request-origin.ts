import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../../platform/http/errors';

/** A Host header: a name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export const OriginMessages = {
  unknownHost: { zh: '无法确定访问地址', en: 'The address this site was reached at cannot be told' },
} as const;

/**
 * The origin the browser used to reach us, for links we hand out (QR confirm page, OAuth
 * callback). The page may name its own origin (`origin`, e.g. `https://mes.example.com` behind a
 * TLS proxy that speaks plain HTTP to us); it is taken only when its host is the request's Host,
 * so a caller cannot make us sign links to another site. Otherwise the Host header and the
 * connection's protocol are used.
 */
export function requestOrigin(request: FastifyRequest, claimed?: unknown): string {
  const host = typeof request.headers.host === 'string' ? request.headers.host.trim().toLowerCase() : '';
  if (!host || !HOST.test(host)) throw badRequest(OriginMessages.unknownHost);
  if (typeof claimed === 'string' && claimed.trim()) {
    try {
      const url = new URL(claimed.trim());
      if ((url.protocol === 'http:' || url.protocol === 'https:') && sameHost(url, host)) return url.origin;
    } catch {
      // not a URL: fall back to the Host header
    }
  }
  return `${request.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

/** `new URL` drops a default port; the Host header may still carry it. */
function sameHost(url: URL, host: string): boolean {
  if (url.host === host) return true;
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return `${url.host}:${defaultPort}` === host;
}
