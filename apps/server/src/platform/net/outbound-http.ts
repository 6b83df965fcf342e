import http from 'node:http';
import https from 'node:https';
import { guardedLookup, httpUrlOf, OutboundError, resolveOutbound } from './outbound-guard';
import type { OutboundPolicy } from './outbound-policy';

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Whole call: connecting, sending and reading the reply. */
  timeoutMs: number;
  /** Replies larger than this are not read (`body` is then undefined). */
  maxBytes: number;
}

export interface OutboundReply {
  status: number;
  /** The reply as text; undefined when it was larger than `maxBytes`. */
  body: string | undefined;
}

/** A call that did not get a reply: timed out, or the network failed (`code` as Node names it). */
export class OutboundFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'network',
    readonly code: string,
  ) {
    super(kind === 'timeout' ? 'timeout' : code);
  }
}

/**
 * One HTTP request to an address a tenant configured (SMS providers, third-party sign-in). The
 * host is checked against the platform's outbound policy before anything is sent, and the
 * socket connects only to the addresses that were checked. Redirects are never followed: the
 * reply is returned as it is, so a redirect cannot lead the request to an unchecked address.
 * Throws OutboundError (refused, unresolved) or OutboundFailure.
 */
export async function outboundRequest(
  policy: OutboundPolicy,
  urlText: string | URL,
  init: OutboundRequest,
): Promise<OutboundReply> {
  const url = typeof urlText === 'string' ? httpUrlOf(urlText) : httpUrlOf(urlText.toString());
  // Refuses before connecting (and covers literal addresses, for which sockets do no lookup).
  await resolveOutbound(policy, url.hostname);
  const client = url.protocol === 'https:' ? https : http;
  const signal = AbortSignal.timeout(init.timeoutMs);
  return new Promise<OutboundReply>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (error instanceof OutboundError) return reject(error);
      if (signal.aborted) return reject(new OutboundFailure('timeout', 'ETIMEDOUT'));
      const code = (error as { code?: unknown }).code;
      reject(new OutboundFailure('network', typeof code === 'string' ? code : 'ECONNRESET'));
    };
    const request = client.request(
      url,
      {
        method: init.method,
        headers:
          init.body === undefined ? init.headers : { ...init.headers, 'content-length': Buffer.byteLength(init.body) },
        lookup: guardedLookup(policy),
        // No pooled sockets: each call is checked and connected on its own.
        agent: false,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let tooLarge = false;
        response.on('data', (chunk: Buffer) => {
          if (tooLarge) return;
          size += chunk.length;
          if (size > init.maxBytes) {
            tooLarge = true;
            chunks.length = 0;
            response.destroy();
            resolve({ status: response.statusCode ?? 0, body: undefined });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', (error) => {
          if (!tooLarge) fail(error);
        });
      },
    );
    request.on('error', fail);
    request.end(init.body);
  });
}
