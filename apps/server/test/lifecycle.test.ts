import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { isProcessAlive } from '../src/platform/data-dir';
import { freePort } from './support/free-ports';
import { basic, md5 } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/**
 * The server as a real process: `src/main.ts` bundled as `npm run build` bundles it (support/server-bundle.ts).
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Running {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function start(env: Record<string, string>): Promise<Running> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const { DATABASE_URL: _drop, ...base } = process.env;
  const child = spawn(process.execPath, [inject('serverEntry')], {
    cwd: serverDir,
    env: { ...base, LOG_LEVEL: 'warn', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output: () => out, exited };
}

async function healthy(r: Running, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (r.child.exitCode !== null) throw new Error(`server exited: ${r.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${r.port}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`server not healthy: ${r.output()}`);
}

async function signIn(r: Running, password: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${r.port}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      tenantId: '000000',
      username: 'admin',
      password: md5(password),
      grant_type: 'password',
    }),
  });
}

const postmasterPid = (dataDir: string): number | undefined => {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
};

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) {
    const pid = postmasterPid(d);
    if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGQUIT');
    fs.rmSync(d, { recursive: true, force: true });
  }
});

/** A DATA_DIR inside a fresh temp folder (open for traversal unless `privateParent`). */
function tempDataDir(privateParent = false): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-life-'));
  if (!privateParent) fs.chmodSync(d, 0o755);
  dirs.push(d);
  return path.join(d, 'data');
}

async function run(env: Record<string, string>): Promise<Running> {
  const r = await start(env);
  children.push(r.child);
  return r;
}

// Each test starts real server processes (a new cluster, or a restart after kill -9): on a busy
// 2-core machine that alone can take 20-30 s, so they get a limit of their own.
describe('server process with the embedded database', { timeout: 90_000 }, () => {
  const dataDir = tempDataDir();
  let password = '';
  let token = '';

  it('first start: creates the database, shows the generated admin password once, answers health', async () => {
    const r = await run({ DATA_DIR: dataDir });
    await healthy(r);
    const m = /password (\S+)/.exec(r.output());
    expect(m).not.toBeNull();
    password = m?.[1] ?? '';
    const file = path.join(dataDir, 'admin-password.txt');
    expect(fs.readFileSync(file, 'utf8')).toContain(password);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(fs.statSync(path.join(dataDir, 'jwt-secret')).mode & 0o077).toBe(0);
    const res = await signIn(r, password);
    expect(res.status).toBe(200);
    token = ((await res.json()) as { access_token: string }).access_token;

    // A second server on the same directory is refused while the first runs.
    const second = await run({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('Another MES Console server');

    // SIGTERM stops the server and its database cleanly.
    const pgPid = postmasterPid(dataDir);
    expect(pgPid && isProcessAlive(pgPid)).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(isProcessAlive(pgPid as number)).toBe(false);
  });

  it('restart: data survives, no new password, tokens of this installation still work', async () => {
    const r = await run({ DATA_DIR: dataDir });
    await healthy(r);
    expect(r.output()).not.toMatch(/password \S+/);
    expect((await signIn(r, password)).status).toBe(200);
    const info = await fetch(`http://127.0.0.1:${r.port}/api/blade-user/info`, {
      headers: { 'blade-auth': `bearer ${token}` },
    });
    expect(info.status).toBe(200);

    // kill -9 leaves the embedded PostgreSQL running as an orphan ...
    const orphan = postmasterPid(dataDir) as number;
    r.child.kill('SIGKILL');
    await r.exited;
    expect(isProcessAlive(orphan)).toBe(true);

    // ... which the next start detects and stops before starting its own.
    const next = await run({ DATA_DIR: dataDir });
    await healthy(next);
    expect(isProcessAlive(orphan)).toBe(false);
    expect((await signIn(next, password)).status).toBe(200);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });
});

describe('server process as root with DATA_DIR under a private folder', { timeout: 90_000 }, () => {
  it.skipIf(process.getuid?.() !== 0)('keeps the cluster where the postgres account can reach it', async () => {
    const dataDir = tempDataDir(true);
    const r = await run({ DATA_DIR: dataDir });
    try {
      await healthy(r);
      const location = fs.readFileSync(path.join(dataDir, 'pg-location'), 'utf8').trim();
      expect(location).toMatch(/^\/var\/lib\/mes-console\/[0-9a-f]{16}\/pg$/);
      expect(fs.existsSync(path.join(location, 'PG_VERSION'))).toBe(true);
      // The private parent was not opened up.
      expect(fs.statSync(path.dirname(dataDir)).mode & 0o777).toBe(0o700);
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
      fs.rmSync(path.dirname(location), { recursive: true, force: true });
    } finally {
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
  });
});

describe('server process with DATABASE_URL', { timeout: 90_000 }, () => {
  it('uses that server (no embedded database) and ADMIN_PASSWORD for the admin', async () => {
    const { url, drop } = await createTestDatabase();
    const dataDir = tempDataDir();
    try {
      const r = await run({ DATA_DIR: dataDir, DATABASE_URL: url, ADMIN_PASSWORD: 'Configured#Pass1' });
      await healthy(r);
      expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(false);
      expect(r.output()).not.toMatch(/password \S+/);
      expect((await signIn(r, 'Configured#Pass1')).status).toBe(200);
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
    } finally {
      await drop();
    }
  });
});

describe('configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be a whole number from 1 to 65535'],
    [{ PORT: '70000' }, 'PORT: must be a whole number from 1 to 65535'],
    [{ DATABASE_URL: 'mysql://root@localhost/mes' }, 'DATABASE_URL: must be a URL like postgres://'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL: must be a URL like redis://'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ ADMIN_PASSWORD: '123' }, 'ADMIN_PASSWORD: must be at least 8 characters'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of'],
  ])('refuses %o with a clear message', async (env, message) => {
    const r = await run({ DATA_DIR: tempDataDir(), ...env });
    expect(await r.exited).toBe(1);
    expect(r.output()).toContain(message);
  });
});
