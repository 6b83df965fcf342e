import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-ports';
import { basic, createTestApp, md5, type TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/**
 * The code generator's proof (issue 19, point 3): code generated for a new table, applied to a
 * scratch copy of the project, `npm run db:generate`, type-checked, linted and formatted unchanged,
 * started, and the new screen driven through a whole CRUD cycle through the API and in the browser
 * (the copy's own web build: the web app bundles the registry).
 *
 * The copy holds only what the server and the registry need (contracts, server, root configs);
 * the installed packages are linked, not copied, except the workspace package, which must be the
 * copy's own. Each phase's duration goes to the log.
 */

const execute = promisify(execFile);

/** Runs a command; a failure carries what the command printed. */
async function run(file: string, args: string[], options: { cwd: string }) {
  try {
    return await execute(file, args, { ...options, maxBuffer: 16 * 1024 * 1024 });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(
      `${path.basename(file)} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`.slice(0, 4000),
    );
  }
}
const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../..');
const GENERATED = 'packages/contracts/src/definitions/mes/proof-gauge.ts';

let t: TestApp;
let scratch: string;
let server: ChildProcess | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let browser: Browser | undefined;
const timings: Record<string, number> = {};

async function timed<T>(phase: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[phase] = Date.now() - started;
  }
}

/** A scratch copy of the project: what the server and the registry need, packages linked. */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-codegen-proof-'));
  const skip = new Set(['node_modules', 'dist', 'data']);
  const copy = (part: string) =>
    fs.cpSync(path.join(ROOT, part), path.join(dir, part), {
      recursive: true,
      // Unit tests stay behind: they are not the project the generated code goes into.
      filter: (src) => !skip.has(path.basename(src)) && !/\.test\.tsx?$/.test(src),
    });
  for (const file of ['package.json', 'tsconfig.base.json', 'eslint.config.js', '.prettierrc.json', '.prettierignore'])
    copy(file);
  copy('packages/contracts');
  for (const part of ['src', 'drizzle', 'drizzle.config.ts', 'package.json', 'tsconfig.json'])
    copy(`apps/server/${part}`);
  for (const part of ['src', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json']) copy(`apps/web/${part}`);
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@mes'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules')))
    if (entry !== '@mes') fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  // The workspace packages resolve to the copy, so the server reads the copy's registry.
  fs.symlinkSync(path.join(dir, 'packages/contracts'), path.join(modules, '@mes/contracts'));
  fs.symlinkSync(path.join(dir, 'apps/server'), path.join(modules, '@mes/server'));
  for (const app of ['server', 'web']) {
    const own = path.join(ROOT, `apps/${app}/node_modules`);
    if (fs.existsSync(own)) fs.symlinkSync(own, path.join(dir, `apps/${app}/node_modules`));
  }
  return dir;
}

const bin = (name: string) => path.join(scratch, 'node_modules/.bin', name);

beforeAll(async () => {
  t = await createTestApp();
  // A new table, as a developer would create it by hand, with comments as labels.
  await t.ctx.database.pool.query(`
    create table proof_gauge (
      id bigint primary key,
      gauge_code varchar(32) not null,
      gauge_name varchar(64) not null,
      size_mm numeric(8, 3),
      calibrated boolean not null default false,
      bought_on date,
      checked_at timestamptz,
      notes text
    );
    comment on column proof_gauge.gauge_code is '量具编号';
    comment on column proof_gauge.gauge_name is '量具名称';
    comment on column proof_gauge.size_mm is '尺寸(mm)';
  `);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    await new Promise<void>((resolve) => {
      server?.once('exit', () => resolve());
      server?.kill('SIGTERM');
    });
  }
  await dropDatabase?.();
  await t.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  console.info(`code generator proof (ms): ${JSON.stringify(timings)}`);
}, 60_000);

describe('code generator proof', () => {
  it('generates a definition that a copy of the project takes unchanged: db:generate, types, lint, start, CRUD in API and browser', async () => {
    const started = Date.now();
    const admin = (await t.signIn()).access_token;
    const post = async (url: string, payload?: Record<string, unknown>) => {
      const res = await t.as(admin, { method: 'POST', url, payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json().data;
    };
    const id = await post('/api/blade-develop/code/submit', {
      codeName: '量具',
      codeNameEn: 'Gauges',
      tableName: 'proof_gauge',
      tablePrefix: '',
      packageName: 'mes',
      baseMode: 1,
      menuGroup: 'business',
      menuSort: 90,
      apiPath: '/mes/proof-gauge',
    });
    await post(`/api/blade-develop/code/columns?id=${id}`);
    const files = (await post(`/api/blade-develop/code/gen-code?ids=${id}&system=mes`)) as {
      path: string;
      content: string;
    }[];
    expect(files.map((f) => f.path)).toEqual(['README.md', GENERATED]);

    scratch = await timed('copy', async () => scratchCopy());
    for (const file of files.filter((f) => f.path !== 'README.md')) {
      fs.mkdirSync(path.dirname(path.join(scratch, file.path)), { recursive: true });
      fs.writeFileSync(path.join(scratch, file.path), file.content);
    }

    // The README's one command.
    await timed('db:generate', () =>
      run(bin('tsx'), ['src/engine/registry-codegen.ts'], { cwd: path.join(scratch, 'apps/server') }).then(() =>
        run(bin('drizzle-kit'), ['generate'], { cwd: path.join(scratch, 'apps/server') }),
      ),
    );
    const definitions = fs.readFileSync(
      path.join(scratch, 'packages/contracts/src/definitions/definitions.ts'),
      'utf8',
    );
    expect(definitions).toContain("import { proofGaugeResource } from './mes/proof-gauge';");
    const tables = fs.readFileSync(path.join(scratch, 'apps/server/src/platform/db/schema/resource-tables.ts'), 'utf8');
    expect(tables).toContain('resourceTable(DEFINITIONS.proofGaugeResource)');
    const migrations = fs.readdirSync(path.join(scratch, 'apps/server/drizzle')).filter((f) => f.endsWith('.sql'));
    const newest = migrations.sort().at(-1) as string;
    expect(fs.readFileSync(path.join(scratch, 'apps/server/drizzle', newest), 'utf8')).toContain(
      'CREATE TABLE "proof_gauge"',
    );

    // The generated file unchanged passes the project's checks: types (contracts, and the server
    // that builds the table from it), ESLint and Prettier.
    await timed('typecheck', () =>
      Promise.all([
        run(bin('tsc'), ['-p', 'packages/contracts'], { cwd: scratch }),
        run(bin('tsc'), ['-p', 'apps/server'], { cwd: scratch }),
      ]),
    );
    await timed('lint', () =>
      Promise.all([
        run(bin('eslint'), ['--max-warnings', '0', GENERATED], { cwd: scratch }),
        run(bin('prettier'), ['--check', GENERATED], { cwd: scratch }),
      ]),
    );
    expect(fs.readFileSync(path.join(scratch, GENERATED), 'utf8')).toBe(files[1]?.content);

    // The web app bundles the registry: the copy's build has the new screen.
    await timed('web build', () =>
      run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: path.join(scratch, 'apps/web') }),
    );

    // Started on a database of its own: the migration creates the table, the seed the menu.
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    await timed('start', async () => {
      const { DATABASE_URL: _ignored, REDIS_URL: _alsoIgnored, ...env } = process.env;
      server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: path.join(scratch, 'apps/server'),
        env: {
          ...env,
          DATABASE_URL: database.url,
          PORT: String(port),
          DATA_DIR: path.join(scratch, 'data'),
          ADMIN_PASSWORD: 'Proof#Admin1',
          LOG_LEVEL: 'warn',
          MQTT_PORT: '0',
          MQTT_HOST: '127.0.0.1',
          WEB_DIST: path.join(scratch, 'apps/web/dist'),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const end = Date.now() + 90_000;
      for (;;) {
        if (server.exitCode !== null) throw new Error('the scratch server exited during start');
        const healthy = await fetch(`${baseUrl}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (healthy) break;
        if (Date.now() > end) throw new Error('the scratch server did not become healthy');
        await new Promise((r) => setTimeout(r, 200));
      }
    });

    await timed('crud', async () => {
      const signIn = await fetch(`${baseUrl}/api/blade-auth/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(),
          'tenant-id': '000000',
        },
        body: new URLSearchParams({
          tenantId: '000000',
          username: 'admin',
          password: md5('Proof#Admin1'),
          grant_type: 'password',
          scope: 'all',
        }).toString(),
      });
      expect(signIn.status).toBe(200);
      const token = ((await signIn.json()) as { access_token: string }).access_token;
      const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
        const res = await fetch(`${baseUrl}/api${url}`, {
          method,
          headers: {
            'blade-auth': `bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as { success: boolean; data: unknown; msg: string } };
      };

      // The screen is in the menu, with its buttons.
      const routes = await call('GET', '/blade-system/menu/routes');
      expect(JSON.stringify(routes.body.data)).toContain('/business/proof-gauge');
      const buttons = await call('GET', '/blade-system/menu/buttons');
      expect(JSON.stringify(buttons.body.data)).toContain('proof_gauge_add');

      const refused = await call('POST', '/mes/proof-gauge/submit', { gaugeName: '卡尺' });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toContain('量具编号');

      const added = await call('POST', '/mes/proof-gauge/submit', {
        gaugeCode: 'G-001',
        gaugeName: '卡尺',
        sizeMm: '150.125',
        calibrated: true,
        boughtOn: '2026-01-05',
        checkedAt: '2026-02-01 08:30:00',
        notes: '第一把',
      });
      expect(added.status, added.body.msg).toBe(200);
      const rowId = added.body.data as string;
      const listed = await call('GET', '/mes/proof-gauge/list?gaugeCode=G-001');
      expect(listed.body.data).toMatchObject({
        total: 1,
        records: [{ id: rowId, gaugeName: '卡尺', sizeMm: '150.125' }],
      });
      const detail = await call('GET', `/mes/proof-gauge/detail?id=${rowId}`);
      expect(detail.body.data).toMatchObject({
        gaugeCode: 'G-001',
        calibrated: true,
        boughtOn: '2026-01-05',
        checkedAt: '2026-02-01 08:30:00',
        notes: '第一把',
      });
      const updated = await call('POST', '/mes/proof-gauge/submit', { id: rowId, gaugeName: '游标卡尺' });
      expect(updated.status).toBe(200);
      expect((await call('GET', `/mes/proof-gauge/detail?id=${rowId}`)).body.data).toMatchObject({
        gaugeName: '游标卡尺',
        gaugeCode: 'G-001',
      });
      const removed = await call('POST', `/mes/proof-gauge/remove?ids=${rowId}`);
      expect(removed.status).toBe(200);
      expect((await call('GET', '/mes/proof-gauge/list')).body.data).toMatchObject({ total: 0 });
    });
    await timed('browser', async () => {
      browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
      });
      const context = await browser.newContext({
        baseURL: baseUrl,
        locale: 'zh-CN',
        viewport: { width: 1440, height: 900 },
      });
      const page = await context.newPage();
      // The copy's server runs beside the whole suite: on two busy cores a first screen can take
      // longer than Playwright's 30 s default (seen once in CI at load 17).
      page.setDefaultTimeout(90_000);
      await page.goto('/login');
      await page.getByTestId('login-username').fill('admin');
      await page.getByTestId('login-password').fill('Proof#Admin1');
      await page.getByTestId('login-submit').click();
      await page.waitForURL('**/wel/index');
      // The new screen at its menu path (its menu entry is checked through menu/routes above).
      // Clicking through the side menu was flaky: a click on 业务管理 could fold the group again.
      await page.goto('/business/proof-gauge');
      const screen = page.locator('[data-screen="/business/proof-gauge"]');
      await screen.getByTestId('crud-add').click();
      const dialog = page.locator('.mes-crud-dialog .ant-modal-content');
      await dialog.locator('#crud-form_gaugeCode').fill('G-WEB');
      await dialog.locator('#crud-form_gaugeName').fill('千分尺');
      await dialog.locator('#crud-form_sizeMm').fill('25.5');
      await dialog.getByTestId('crud-dialog-submit').click();
      await dialog.waitFor({ state: 'detached' });
      const row = screen.locator('.ant-table-row', { hasText: 'G-WEB' });
      await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('千分尺');
      await row.getByTestId('crud-row-edit').click();
      await dialog.locator('#crud-form_gaugeName').fill('外径千分尺');
      await dialog.getByTestId('crud-dialog-submit').click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('外径千分尺');
      await row.getByTestId('crud-row-delete').click();
      // The confirmation closes once the remove has answered; then the list reads again.
      const confirm = page.locator('.ant-modal-confirm');
      await confirm.locator('.ant-btn-primary').click();
      await confirm.waitFor({ state: 'detached' });
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
      await context.close();
    });
    timings.total = Date.now() - started;
  }, 300_000);
});
