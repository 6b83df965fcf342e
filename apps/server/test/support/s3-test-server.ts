import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server for tests: path-style PutObject, GetObject, DeleteObject and
 * HeadBucket on in-memory buckets. Every request must carry a valid AWS Signature Version 4,
 * checked here from the specification (canonical request, string to sign, derived key), not
 * with the SDK's signer, so a test proves the server signs requests a real service accepts.
 */
export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  contentDisposition: string | undefined;
}

export interface S3TestServer {
  endpoint: string;
  /** `<bucket>/<key>` → object. */
  objects: Map<string, StoredObject>;
  /** Every request with the S3 error code it got (undefined when it succeeded). */
  requests: { method: string; path: string; error?: string }[];
  close(): Promise<void>;
}

export interface S3TestServerOptions {
  /** access key → secret key. */
  credentials: Record<string, string>;
  buckets: string[];
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 requires (unreserved characters stay). */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
const MAX_SKEW_MS = 15 * 60 * 1000;

function verifySignature(req: http.IncomingMessage, body: Buffer, credentials: Record<string, string>): void {
  const m = AUTH.exec(String(req.headers.authorization ?? ''));
  if (!m) throw new S3Error(403, 'AccessDenied');
  const [, accessKey, day, region, signedList, signature] = m as unknown as string[];
  const secret = credentials[accessKey as string];
  if (secret === undefined) throw new S3Error(403, 'InvalidAccessKeyId');

  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!when || !amzDate.startsWith(day as string)) throw new S3Error(403, 'AccessDenied');
  const [, y, mo, d, h, mi, s] = when.map(Number) as number[];
  const at = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
  if (Math.abs(Date.now() - at) > MAX_SKEW_MS) throw new S3Error(403, 'RequestTimeTooSkewed');

  const signed = (signedList as string).split(';');
  if (!signed.includes('host') || !signed.includes('x-amz-date')) throw new S3Error(403, 'AccessDenied');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD') {
    if (!/^[0-9a-f]{64}$/.test(payloadHash)) throw new S3Error(400, 'NotImplemented');
    if (payloadHash !== sha256(body)) throw new S3Error(400, 'XAmzContentSHA256Mismatch');
  }

  const url = new URL(req.url ?? '/', 'http://placeholder');
  const canonicalUri = url.pathname
    .split('/')
    .map((segment) => encode(decodeURIComponent(segment)))
    .join('/');
  const canonicalQuery = [...url.searchParams.entries()]
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = signed
    .map((name) => {
      const raw = req.headers[name];
      const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
      return `${name}:${String(value).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedList, payloadHash].join(
    '\n',
  );
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day as string), region as string), 's3'), 'aws4_request');
  const expected = hmac(key, stringToSign);
  const given = Buffer.from(signature as string, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new S3Error(403, 'SignatureDoesNotMatch');
}

const errorXml = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code}</Message></Error>`;

export async function startS3TestServer(options: S3TestServerOptions): Promise<S3TestServer> {
  const objects = new Map<string, StoredObject>();
  const requests: S3TestServer['requests'] = [];
  const buckets = new Set(options.buckets);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
      const entry: S3TestServer['requests'][number] = { method: req.method ?? '', path };
      requests.push(entry);
      try {
        verifySignature(req, body, options.credentials);
        const [, bucket = '', ...rest] = path.split('/');
        const key = rest.map(decodeURIComponent).join('/');
        if (!buckets.has(bucket)) throw new S3Error(404, 'NoSuchBucket');
        const id = `${bucket}/${key}`;
        if (req.method === 'HEAD' && !key) {
          res.writeHead(200).end();
        } else if (req.method === 'PUT' && key) {
          const header = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
          objects.set(id, {
            body,
            contentType: header('content-type'),
            contentDisposition: header('content-disposition'),
          });
          res.writeHead(200, { ETag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
        } else if (req.method === 'GET' && key) {
          const found = objects.get(id);
          if (!found) throw new S3Error(404, 'NoSuchKey');
          res
            .writeHead(200, {
              'Content-Type': found.contentType ?? 'application/octet-stream',
              'Content-Length': found.body.length,
            })
            .end(found.body);
        } else if (req.method === 'DELETE' && key) {
          objects.delete(id);
          res.writeHead(204).end();
        } else {
          throw new S3Error(405, 'MethodNotAllowed');
        }
      } catch (error) {
        const e = error instanceof S3Error ? error : new S3Error(500, 'InternalError');
        entry.error = e.code;
        if (req.method === 'HEAD') res.writeHead(e.status).end();
        else res.writeHead(e.status, { 'Content-Type': 'application/xml' }).end(errorXml(e.code));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
