import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TokenResponse } from '@mes/contracts';
import type { AppContext } from '../../src/app-context';
import type { JobQueueSettings } from '../../src/platform/jobs/job-queue';
import { buildApp, type BuildAppOptions } from '../../src/app';
import { connectDatabase, type Database } from '../../src/platform/db/database';
import type { Clock } from '../../src/platform/store/ephemeral-store';
import { createAppContext } from '../../src/runtime';
import { ADMIN_PASSWORD } from './template-database';
import { createSeededTestDatabase } from './test-database';

export { ADMIN_PASSWORD };
export const md5 = (text: string) => createHash('md5').update(text).digest('hex');
export const basic = (id = 'saber', secret = 'saber_secret') =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A clock the test moves by hand, to expire tokens, codes and locks without waiting. */
export class ManualClock implements Clock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: ManualClock;
  database: Database;
  databaseUrl: string;
  jwtSecret: string;
  /** POSTs the token endpoint with form parameters. */
  token(params: Record<string, string>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Signs in with the password grant and returns the token body (fails the test otherwise). */
  signIn(account?: string, password?: string, tenantId?: string): Promise<TokenResponse>;
  /** Injects a request carrying `Blade-Auth: bearer <token>`. */
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The real app on a fresh, migrated and seeded database of its own. */
export async function createTestApp(
  options: {
    beforeReady?: (app: FastifyInstance, ctx: AppContext) => void;
    appOptions?: BuildAppOptions;
    /** The job queue's settings (a test polls it fast). */
    jobs?: Partial<JobQueueSettings>;
  } = {},
): Promise<TestApp> {
  // Migrated and seeded already: a copy of the run's template (support/template-database.ts).
  const { url, drop } = await createSeededTestDatabase();
  const database = connectDatabase(url, 5);
  const clock = new ManualClock();
  const jwtSecret = randomBytes(32).toString('hex');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-test-data-'));
  const ctx = await createAppContext({ database, databaseUrl: url, jwtSecret, clock, dataDir, jobs: options.jobs });
  const app = await buildApp(ctx, options.appOptions);
  options.beforeReady?.(app, ctx);
  await app.ready();

  const token: TestApp['token'] = (params, headers = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(),
        'tenant-id': '000000',
        ...headers,
      },
      payload: new URLSearchParams(params).toString(),
    });

  return {
    app,
    ctx,
    clock,
    database,
    databaseUrl: url,
    jwtSecret,
    token,
    async signIn(account = 'admin', password = ADMIN_PASSWORD, tenantId = '000000') {
      const res = await token({
        tenantId,
        username: account,
        password: md5(password),
        grant_type: 'password',
        scope: 'all',
      });
      if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
      return res.json<TokenResponse>();
    },
    as(accessToken, opts) {
      return app.inject({ ...opts, headers: { ...opts.headers, 'blade-auth': `bearer ${accessToken}` } });
    },
    async close() {
      await app.close();
      await ctx.close();
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A reply's envelope, as every route answers. */
export interface ApiEnvelope<T = unknown> {
  success: boolean;
  msg: string;
  data: T;
}

/**
 * Calls under `/api` as a signed-in user, in a language: `call` answers the status and the
 * envelope, `data` the envelope's data of a 200 (anything else throws, naming the route).
 * `app` is read at each call, as test files create their app in `beforeAll`.
 */
export function apiCalls(app: () => TestApp) {
  const call = async (token: string, method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'zh-CN') => {
    const res = await app().as(token, {
      method,
      url: `/api${url}`,
      payload: payload as Record<string, unknown>,
      headers: { 'accept-language': lang },
    });
    return { status: res.statusCode, body: res.json<ApiEnvelope<Record<string, unknown>>>() };
  };
  const data = async <T = Record<string, unknown>>(
    token: string,
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
  ): Promise<T> => {
    const res = await call(token, method, url, payload);
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as T;
  };
  return { call, data };
}
