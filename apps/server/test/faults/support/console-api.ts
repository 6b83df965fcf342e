import { createHash } from 'node:crypto';
import { ADMIN_PASSWORD } from './server-process';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
/** The seeded OAuth client the web app signs in with. */
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

export interface Envelope<T = unknown> {
  code: number;
  success: boolean;
  msg: string;
  data: T;
}

export interface Reply<T = unknown> {
  status: number;
  body: Envelope<T>;
  text: string;
}

/** A device as an administrator registered it, with the MQTT credential the API answered once. */
export interface RegisteredDevice {
  id: string;
  code: string;
  clientId: string;
  secret: string;
}

/**
 * The console's HTTP API as an administrator uses it: signed in through the token endpoint as
 * the seeded admin of the platform tenant, every call with `Blade-Auth`. `baseUrl` is read at
 * each call (a restarted server keeps its port, but the object outlives it).
 */
export class ConsoleApi {
  private token = '';

  constructor(private readonly baseUrl: () => string) {}

  async signIn(): Promise<void> {
    const res = await fetch(`${this.baseUrl()}/api/blade-auth/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: BASIC, 'tenant-id': '000000' },
      body: new URLSearchParams({
        tenantId: '000000',
        username: 'admin',
        password: md5(ADMIN_PASSWORD),
        grant_type: 'password',
        scope: 'all',
      }).toString(),
    });
    const body = (await res.json()) as { access_token?: string };
    if (res.status !== 200 || !body.access_token)
      throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);
    this.token = body.access_token;
  }

  /** The same session (its token) sent to another address: one process of a cluster, not its balancer. */
  on(baseUrl: () => string): ConsoleApi {
    const other = new ConsoleApi(baseUrl);
    other.token = this.token;
    return other;
  }

  async call<T = unknown>(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    language?: string,
    timeoutMs = 15_000,
  ): Promise<Reply<T>> {
    const res = await fetch(`${this.baseUrl()}/api${url}`, {
      method,
      headers: {
        'blade-auth': `bearer ${this.token}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...(language ? { 'accept-language': language } : {}),
      },
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: Envelope<T>;
    try {
      body = JSON.parse(text) as Envelope<T>;
    } catch {
      body = { code: res.status, success: false, msg: text, data: undefined as T };
    }
    return { status: res.status, body, text };
  }

  /** The envelope's data of a 200; anything else throws, naming the route. */
  async data<T = unknown>(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<T> {
    const reply = await this.call<T>(method, url, payload);
    if (reply.status !== 200 || !reply.body.success) throw new Error(`${method} ${url}: ${reply.status} ${reply.text}`);
    return reply.body.data;
  }

  /**
   * A product with an integer field `n` (the message's number), a float `v`, a text `label`, and
   * `count` devices of it, each with its MQTT secret (rotate-secret `first=1`, as the screen does).
   * `alarmRules` are the product's rows of 告警规则 (the cluster test raises warnings with one).
   */
  async registerDevices(
    prefix: string,
    count: number,
    product: { protocol?: string; category?: number; alarmRules?: Record<string, unknown>[] } = {},
  ): Promise<RegisteredDevice[]> {
    const productId = await this.data<string>('POST', '/basic/product/submit', {
      productCode: `${prefix}-P`,
      productName: `${prefix} 故障测试`,
      category: product.category ?? 2,
      protocol: product.protocol ?? 'mqtt-json',
      fields: [
        { fieldKey: 'n', fieldName: '序号', dataType: 'int', access: 'r' },
        { fieldKey: 'v', fieldName: '数值', dataType: 'float', precision: 2, access: 'r' },
        { fieldKey: 'label', fieldName: '文本', dataType: 'string', access: 'r' },
      ],
      ...(product.alarmRules ? { alarmRules: product.alarmRules } : {}),
    });
    const devices: RegisteredDevice[] = [];
    for (let i = 0; i < count; i += 1) {
      const code = `${prefix}-${i}`;
      const id = await this.data<string>('POST', '/basic/device/submit', {
        deviceCode: code,
        deviceName: `${prefix} ${i} 号`,
        productId,
      });
      const secret = await this.data<{ clientId: string; secret: string }>(
        'POST',
        `/basic/device/rotate-secret?id=${id}&first=1`,
      );
      devices.push({ id, code, clientId: secret.clientId, secret: secret.secret });
    }
    return devices;
  }
}
