import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Local stand-ins for the SMS providers' HTTP APIs. Each one checks the request the way the
 * provider's documentation describes (signature, required fields) with its own implementation —
 * nothing here comes from the product's signing code — and answers as the provider does.
 */

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** What the provider understood: form fields, or the JSON body. */
  fields: Record<string, unknown>;
}

export interface ProviderReplyScript {
  status: number;
  body: unknown;
}

export interface ProviderServer {
  url: string;
  /** Requests whose signature and fields passed the checks. */
  accepted: ReceivedRequest[];
  /** Every request, with the refusal it got (if any). */
  refused: { request: ReceivedRequest; reply: ProviderReplyScript }[];
  /** Replies to give instead of success to the next accepted requests (a provider's business refusal). */
  failNext(reply: ProviderReplyScript): void;
  close(): Promise<void>;
}

interface Credentials {
  accessKey: string;
  secretKey: string;
}

type Check = (request: ReceivedRequest) => ProviderReplyScript | undefined;

/** Starts a server that runs `check` (a refusal) then answers `success`. */
async function startServer(check: Check, success: (request: ReceivedRequest) => ProviderReplyScript) {
  const accepted: ReceivedRequest[] = [];
  const refused: ProviderServer['refused'] = [];
  const scripted: ProviderReplyScript[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://placeholder');
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        body,
        fields: parseFields(req.headers['content-type'] ?? '', body),
      };
      let reply = check(request);
      if (reply) refused.push({ request, reply });
      else {
        accepted.push(request);
        reply = scripted.shift() ?? success(request);
      }
      res.writeHead(reply.status, { 'Content-Type': 'application/json;charset=utf-8' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    refused,
    failNext: (reply: ProviderReplyScript) => void scripted.push(reply),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies ProviderServer;
}

function parseFields(contentType: string, body: string): Record<string, unknown> {
  if (contentType.startsWith('application/json')) {
    try {
      return JSON.parse(body) as Record<string, unknown>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(body));
}

const hmacSha1 = (key: string, data: string) => createHmac('sha1', key).update(data, 'utf8').digest();
const withinMinutes = (ms: number, minutes: number) => Math.abs(Date.now() - ms) <= minutes * 60_000;

// ----------------------------------------------------------------------------------------------
// Alibaba Cloud dysmsapi: RPC style, signature version 1.0 (HMAC-SHA1).
// Docs: parameters sorted by name; each name and value encoded per RFC 3986 (unreserved
// A-Z a-z 0-9 - _ . ~ kept, everything else %XX upper-case, UTF-8); joined with = and &;
// StringToSign = Method & %2F & encode(joined); key = AccessKeySecret + "&"; base64.

function rfc3986(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function startAliyunServer(creds: Credentials): Promise<ProviderServer> {
  const nonces = new Set<string>();
  const refuse = (status: number, Code: string, Message: string) => ({
    status,
    body: { RequestId: 'test-request', Code, Message },
  });
  return startServer(
    (r) => {
      const f = r.fields as Record<string, string>;
      if (r.method !== 'POST' && r.method !== 'GET') return refuse(400, 'UnsupportedHTTPMethod', r.method);
      for (const name of [
        'AccessKeyId',
        'Action',
        'Format',
        'RegionId',
        'SignatureMethod',
        'SignatureNonce',
        'SignatureVersion',
        'Signature',
        'Timestamp',
        'Version',
      ]) {
        if (!f[name]) return refuse(400, 'MissingParameter', `${name} is mandatory for this action.`);
      }
      if (f.AccessKeyId !== creds.accessKey)
        return refuse(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
      if (f.SignatureMethod !== 'HMAC-SHA1' || f.SignatureVersion !== '1.0')
        return refuse(400, 'InvalidSignatureMethod', 'Specified signature method is not supported.');
      if (
        !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(f.Timestamp ?? '') ||
        !withinMinutes(Date.parse(f.Timestamp ?? ''), 15)
      )
        return refuse(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
      const sorted = Object.entries(f)
        .filter(([k]) => k !== 'Signature')
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const query = sorted.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
      const expected = hmacSha1(`${creds.secretKey}&`, `${r.method}&${rfc3986('/')}&${rfc3986(query)}`).toString(
        'base64',
      );
      if (expected !== f.Signature)
        return refuse(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
      if (nonces.has(f.SignatureNonce as string))
        return refuse(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
      nonces.add(f.SignatureNonce as string);
      if (f.Action !== 'SendSms' || f.Version !== '2017-05-25')
        return refuse(400, 'InvalidAction.NotFound', f.Action ?? '');
      for (const name of ['PhoneNumbers', 'SignName', 'TemplateCode'])
        if (!f[name]) return refuse(400, 'MissingParameter', `${name} is mandatory for this action.`);
      return undefined;
    },
    () => ({
      status: 200,
      body: { Message: 'OK', RequestId: 'test-request', BizId: '900619746936498440^0', Code: 'OK' },
    }),
  );
}

// ----------------------------------------------------------------------------------------------
// Tencent Cloud API 3.0, TC3-HMAC-SHA256. Docs: CanonicalRequest = method \n uri \n query \n
// canonical headers (lower-case name:trimmed lower-case value\n, sorted) \n signed headers \n
// hex sha256(payload); StringToSign = algorithm \n timestamp \n date/service/tc3_request \n
// hex sha256(CanonicalRequest); key chain HMAC("TC3"+SecretKey, date) → service → "tc3_request".

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac256 = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

export function startTencentServer(creds: Credentials): Promise<ProviderServer> {
  const refuse = (Code: string, Message: string) => ({
    status: 200,
    body: { Response: { Error: { Code, Message }, RequestId: 'test-request' } },
  });
  return startServer(
    (r) => {
      const auth = String(r.headers.authorization ?? '');
      const m =
        /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
          auth,
        );
      if (!m) return refuse('AuthFailure.InvalidAuthorization', 'Authorization header is invalid.');
      const [, secretId, date, service, signedHeaders, signature] = m as unknown as string[];
      if (secretId !== creds.accessKey) return refuse('AuthFailure.SecretIdNotFound', 'The SecretId is not found.');
      const timestamp = Number(r.headers['x-tc-timestamp']);
      if (!withinMinutes(timestamp * 1000, 5)) return refuse('AuthFailure.SignatureExpire', 'Signature expired.');
      if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date)
        return refuse('AuthFailure.SignatureFailure', 'The date in Credential does not match X-TC-Timestamp.');
      const names = (signedHeaders as string).split(';');
      if (!names.includes('host') || !names.includes('content-type'))
        return refuse('AuthFailure.SignatureFailure', 'host and content-type must be signed.');
      const canonicalHeaders = names
        .map(
          (n) =>
            `${n}:${String(r.headers[n] ?? '')
              .trim()
              .toLowerCase()}\n`,
        )
        .join('');
      const [uri, query = ''] = r.path.split('?');
      const canonicalRequest = `${r.method}\n${uri}\n${query}\n${canonicalHeaders}\n${signedHeaders}\n${sha256(r.body)}`;
      const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256(canonicalRequest)}`;
      const key = hmac256(hmac256(hmac256(`TC3${creds.secretKey}`, date as string), service as string), 'tc3_request');
      if (createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex') !== signature)
        return refuse('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
      if (service !== 'sms') return refuse('AuthFailure.SignatureFailure', `service ${service}`);
      if (r.headers['x-tc-action'] !== 'SendSms' || r.headers['x-tc-version'] !== '2021-01-11')
        return refuse('InvalidAction', 'The action or version does not exist.');
      if (!r.headers['x-tc-region']) return refuse('MissingParameter', 'X-TC-Region is required.');
      const f = r.fields;
      if (!Array.isArray(f.PhoneNumberSet) || !f.SmsSdkAppId || !f.TemplateId)
        return refuse('MissingParameter', 'PhoneNumberSet, SmsSdkAppId and TemplateId are required.');
      return undefined;
    },
    (r) => ({
      status: 200,
      body: {
        Response: {
          SendStatusSet: (r.fields.PhoneNumberSet as string[]).map((p, i) => ({
            SerialNo: `serial-${i}`,
            PhoneNumber: p,
            Fee: 1,
            SessionContext: '',
            Code: 'Ok',
            Message: 'send success',
            IsoCode: 'CN',
          })),
          RequestId: 'test-request',
        },
      },
    }),
  );
}

// ----------------------------------------------------------------------------------------------
// Qiniu: Authorization "Qiniu <AK>:<urlsafe base64 HMAC-SHA1>" over
// "<Method> <Path>[?<Query>]\nHost: <Host>\nContent-Type: <type>\n\n<body>" (body only when the
// type is set and is not application/octet-stream).

export function startQiniuServer(creds: Credentials): Promise<ProviderServer> {
  const refuse = (status: number, error: string) => ({ status, body: { error, request_id: 'test-request' } });
  return startServer(
    (r) => {
      const m = /^Qiniu ([^:]+):(.+)$/.exec(String(r.headers.authorization ?? ''));
      if (!m) return refuse(401, 'bad token');
      if (m[1] !== creds.accessKey) return refuse(401, 'bad token');
      const contentType = String(r.headers['content-type'] ?? '');
      let data = `${r.method} ${r.path}\nHost: ${r.headers.host}`;
      if (contentType) data += `\nContent-Type: ${contentType}`;
      data += '\n\n';
      if (r.body && contentType && contentType !== 'application/octet-stream') data += r.body;
      const expected = hmacSha1(creds.secretKey, data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
      if (expected !== m[2]) return refuse(401, 'bad token');
      if (r.method !== 'POST' || r.path !== '/v1/message') return refuse(404, 'not found');
      const f = r.fields;
      if (!f.template_id || !Array.isArray(f.mobiles) || !f.mobiles.length) return refuse(400, 'InvalidParameter');
      return undefined;
    },
    () => ({ status: 200, body: { job_id: 'job-1' } }),
  );
}

// ----------------------------------------------------------------------------------------------
// Yunpian v2: form POST with apikey; tpl_single_send takes one mobile, tpl_batch_send a comma list;
// tpl_value is "#name#=value" pairs with name and value URL-encoded.

export function startYunpianServer(apikey: string): Promise<ProviderServer> {
  const refuse = (status: number, code: number, msg: string, detail: string) => ({
    status,
    body: { http_status_code: status, code, msg, detail },
  });
  return startServer(
    (r) => {
      const f = r.fields as Record<string, string>;
      if (!f.apikey || f.apikey !== apikey) return refuse(401, -1, '非法的apikey', '请检查的apikey是否正确');
      if (!f.tpl_id) return refuse(400, 1, '请求参数缺失', '参数 tpl_id 必须传入');
      if (!f.mobile) return refuse(400, 1, '请求参数缺失', '参数 mobile 必须传入');
      if (r.path === '/v2/sms/tpl_single_send.json' && f.mobile.includes(','))
        return refuse(400, 2, '请求参数格式错误', '参数 mobile 格式不正确');
      if (r.path !== '/v2/sms/tpl_single_send.json' && r.path !== '/v2/sms/tpl_batch_send.json')
        return refuse(404, 5, '未找到匹配的模板', r.path);
      return undefined;
    },
    (r) => {
      const mobiles = String(r.fields.mobile).split(',');
      const item = (mobile: string, i: number) => ({
        code: 0,
        msg: '发送成功',
        count: 1,
        fee: 0.05,
        unit: 'RMB',
        mobile,
        sid: 3310228982 + i,
      });
      if (r.path.endsWith('tpl_single_send.json')) return { status: 200, body: item(mobiles[0] as string, 0) };
      return {
        status: 200,
        body: {
          total_count: mobiles.length,
          total_fee: (0.05 * mobiles.length).toFixed(4),
          unit: 'RMB',
          data: mobiles.map(item),
        },
      };
    },
  );
}

/** Template variables of a Yunpian `tpl_value`. */
export function yunpianTemplateValues(tplValue: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of tplValue.split('&')) {
    const [name = '', value = ''] = pair.split('=');
    out[decodeURIComponent(name).replace(/^#|#$/g, '')] = decodeURIComponent(value);
  }
  return out;
}

/** A server that accepts the connection and never answers (for time-outs). */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => undefined);
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
