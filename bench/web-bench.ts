/**
 * `npm run bench:web`: the JavaScript a browser downloads on a first visit to `/login`, and for
 * the first screen after signing in, measured in Debian's Chromium against the real server.
 * Prints raw and gzip sizes (gzip level 9 of each script, the budget's unit) and the budget check.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Request, type Response } from 'playwright-core';
import { freePort, startProcess, stop, waitFor } from './support';

const LOGIN_BUDGET_KB = 250;
const SCRIPTS_SETTLED_MS = 1_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-webbench-'));
fs.chmodSync(dataDir, 0o755);
const password = 'Bench#Password1';
const port = await freePort();
const server = startProcess([path.join(root, 'apps/server/dist/main.js')], {
  PORT: String(port),
  DATA_DIR: path.join(dataDir, 'data'),
  ADMIN_PASSWORD: password,
  LOG_LEVEL: 'warn',
});

interface Loaded {
  url: string;
  raw: number;
  gzip: number;
}

/** Collects every script the page downloads until `done` resolves. */
async function scriptsDuring(page: Page, done: () => Promise<unknown>): Promise<Loaded[]> {
  const seen: Promise<Loaded | undefined>[] = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() !== 'script') return;
    seen.push(
      res
        .body()
        .then((body) => ({
          url: new URL(res.url()).pathname,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        }))
        .catch(() => undefined),
    );
  };
  let lastScript = Date.now();
  const onRequest = (req: Request) => {
    if (req.resourceType() === 'script') lastScript = Date.now();
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  await done();
  // Not 'networkidle': the signed-in shell keeps its live connection open, so the network never
  // goes idle. The lazy chunks of a screen are requested within moments of its render; a second
  // with no new script request means the screen has what it loads.
  while (Date.now() - lastScript < SCRIPTS_SETTLED_MS) {
    await page.waitForTimeout(100);
  }
  page.off('request', onRequest);
  page.off('response', onResponse);
  return (await Promise.all(seen)).filter((x): x is Loaded => x !== undefined);
}

const kb = (n: number) => (n / 1024).toFixed(1);
const sum = (list: Loaded[], key: 'raw' | 'gzip') => list.reduce((s, x) => s + x[key], 0);

const browser = await chromium.launch({
  executablePath:
    process.env.CHROMIUM_PATH ??
    (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking'],
});
try {
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  const login = await scriptsDuring(page, () => page.goto('/login'));
  const afterSignIn = await scriptsDuring(page, async () => {
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/wel/index');
    await page.getByTestId('welcome').waitFor();
  });
  const fresh = await context.newPage();
  const home = await scriptsDuring(fresh, () => fresh.goto('/wel/index'));

  console.log('\nWeb first-load JavaScript (Chromium, built app served by the real server)\n');
  console.table([
    {
      visit: 'first visit to /login',
      scripts: login.length,
      'raw KB': kb(sum(login, 'raw')),
      'gzip KB': kb(sum(login, 'gzip')),
    },
    {
      visit: 'sign in → /wel/index (added)',
      scripts: afterSignIn.length,
      'raw KB': kb(sum(afterSignIn, 'raw')),
      'gzip KB': kb(sum(afterSignIn, 'gzip')),
    },
    {
      visit: 'fresh load of /wel/index (signed in)',
      scripts: home.length,
      'raw KB': kb(sum(home, 'raw')),
      'gzip KB': kb(sum(home, 'gzip')),
    },
  ]);
  if (process.env.BENCH_VERBOSE) {
    console.table([...login].sort((a, b) => b.gzip - a.gzip).map((x) => ({ script: x.url, 'gzip KB': kb(x.gzip) })));
  }
  const loginKb = sum(login, 'gzip') / 1024;
  console.log(
    `/login budget: ${loginKb.toFixed(1)} KB of ${LOGIN_BUDGET_KB} KB gzip (ratio ${(loginKb / LOGIN_BUDGET_KB).toFixed(2)})`,
  );
  if (loginKb > LOGIN_BUDGET_KB) process.exitCode = 1;
  await context.close();
} finally {
  await browser.close();
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
