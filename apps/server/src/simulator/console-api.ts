import { createHash } from 'node:crypto';
import type { ApiResult, TokenResponse } from '@mes/contracts';
import { SimulatorError } from './errors';

/** The web app's OAuth client (apps/web/src/config/website.ts): the simulator signs in as the console does. */
const WEB_CLIENT = Buffer.from('saber:saber_secret').toString('base64');

const describeFetchError = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

/** The console's HTTP API as the simulator uses it: sign in, then envelope calls with the token. */
export class ConsoleApi {
  private token = '';

  constructor(
    readonly base: string,
    readonly tenant: string,
  ) {}

  private async send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.base}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new SimulatorError(
        `the console is not reachable at ${this.base} (${describeFetchError(error)}): start it with ` +
          '`npm start` in another terminal, or pass --api with its address',
      );
    }
  }

  private static async json(res: Response, what: string): Promise<unknown> {
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new SimulatorError(
        `${what}: HTTP ${res.status} that is not the MES Console's JSON (${text.slice(0, 120)})`,
      );
    }
  }

  /** The password grant with the password's MD5, as the sign-in page sends it. */
  async signIn(account: string, password: string): Promise<void> {
    const res = await this.send('/api/blade-auth/oauth/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${WEB_CLIENT}`,
        'tenant-id': this.tenant,
        'user-type': 'web',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        tenantId: this.tenant,
        username: account,
        password: createHash('md5').update(password).digest('hex'),
        grant_type: 'password',
        scope: 'all',
        type: 'account',
      }).toString(),
    });
    const body = (await ConsoleApi.json(res, 'sign-in')) as Partial<TokenResponse> & { error_description?: string };
    if (!res.ok || !body.access_token)
      throw new SimulatorError(
        `sign-in as ${account} of tenant ${this.tenant} failed: ${body.error_description ?? `HTTP ${res.status}`}. ` +
          'Pass --password, or set ADMIN_PASSWORD; the generated one is in DATA_DIR/admin-password.txt',
      );
    this.token = body.access_token;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await this.send(path, {
      method,
      headers: {
        'blade-auth': `bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const reply = (await ConsoleApi.json(res, `${method} ${path}`)) as Partial<ApiResult<T>>;
    if (!res.ok || reply.success !== true)
      throw new SimulatorError(`${method} ${path}: ${reply.msg ?? `HTTP ${res.status}`}`);
    return reply.data as T;
  }

  get<T>(path: string, query: Record<string, string | number> = {}): Promise<T> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return this.call<T>('GET', qs ? `${path}?${qs}` : path);
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.call<T>('POST', path, body);
  }
}
