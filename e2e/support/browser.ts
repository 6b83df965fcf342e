import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TENANT_ID } from '@mes/contracts';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, inject } from 'vitest';
import { website } from '../../apps/web/src/config/website';
import { thisServer } from './server';

const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');

/**
 * Debian's Chromium, never a downloaded browser: its old headless shell when installed (package
 * chromium-headless-shell; the browser suite took 37 % less time with it than with the full
 * browser's headless mode on the 2-core machine), else the full browser.
 */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const shell = '/usr/bin/chromium-headless-shell';
  return fs.existsSync(shell) ? shell : '/usr/bin/chromium';
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/**
 * Lets the pages of a spec file (opened in a test or in its beforeAll alike) tell what they saw
 * when a test fails; useBrowser calls it, a file that launches its own browser calls it itself.
 */
export function traceFailures(): void {
  beforeEach(({ onTestFailed }) => {
    onTestFailed(async ({ task }) => {
      for (const [index, tell] of [...traced.values()].entries()) await tell(`${task.name}-${index + 1}`);
    });
  });
}

/**
 * One Chromium for the spec file that calls it, launched before its tests and closed after:
 * `const browser = useBrowser();` then `newPage(browser())`.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  traceFailures();
  afterAll(() => browser?.close());
  return () => {
    if (!browser) throw new Error('the browser starts in beforeAll');
    return browser;
  };
}

export const baseUrl = () => thisServer().baseUrl;

export async function newPage(
  browser: Browser,
  viewport = { width: 1440, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, locale: 'zh-CN' });
  const page = await context.newPage();
  traceOnFailure(page);
  return { context, page };
}

/** The open pages of this spec file, each with what it tells of itself when a test fails. */
const traced = new Map<Page, (test: string) => Promise<void>>();

/**
 * What a failed test leaves for the person reading the run: each open page's last API calls
 * (with their answers' status, time and, for writes, the answer's start), calls still
 * unanswered, the browser's errors, and a screenshot. A flake of a full run rarely happens
 * alone, so the run itself has to say whether the server answered, refused or never got the call.
 */
function traceOnFailure(page: Page): void {
  const started = Date.now();
  const at = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > 60) lines.shift();
  };
  const pending = new Map<object, string>();
  const nameOf = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`.slice(0, 160);
  };
  page.on('request', (r) => {
    if (r.url().includes('/api/')) pending.set(r, `${at()} ${r.method()} ${nameOf(r.url())}`);
  });
  page.on('requestfinished', (r) => {
    const sent = pending.get(r);
    if (sent === undefined) return;
    pending.delete(r);
    // The page may close before the answer is read: then there is nothing left to tell.
    void r
      .response()
      .then(async (res) => {
        const body = r.method() === 'GET' ? '' : ` ${(await res?.text().catch(() => ''))?.slice(0, 160) ?? ''}`;
        keep(`${sent} -> ${res?.status() ?? '?'} at ${at()}${body}`);
      })
      .catch(() => undefined);
  });
  page.on('requestfailed', (r) => {
    const sent = pending.get(r);
    if (sent === undefined) return;
    pending.delete(r);
    keep(`${sent} -> failed at ${at()}: ${r.failure()?.errorText ?? ''}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') keep(`${at()} console.${m.type()}: ${m.text().slice(0, 200)}`);
  });
  page.on('pageerror', (e) => keep(`${at()} page error: ${e.message.slice(0, 200)}`));
  page.on('close', () => traced.delete(page));
  traced.set(page, async (test) => {
    const open = [...pending.values()].map((s) => `${s} -> no answer yet at ${at()}`);
    console.error(`[trace] ${test} (${page.url()})\n${[...lines, ...open].join('\n')}`);
    const name = test.replace(/[^\w\u4e00-\u9fff-]+/g, '_').slice(-90);
    await screenshot(page, `failed-${name}`).catch(() => undefined);
  });
}

/**
 * Signs in as `account` of the platform tenant and opens home, the way a returning user arrives:
 * the token comes from the token endpoint (the same call the sign-in form makes, with the same
 * checks and limits) and is put where the app keeps its session, then home loads. The form
 * itself is covered by sign-in, demo-tenant, guest-registration and live-push; going through it
 * in every test cost each test a second page load.
 */
export async function signInAs(page: Page, account: string, password: string): Promise<void> {
  const token = await requestToken(account, password);
  // Storage belongs to the origin: open a small document of the server's own, then seed it.
  await page.goto('/api/health');
  // What the form's completeSignIn keeps: the session, and the tab bar reset to home.
  await page.evaluate(
    ([token, home]) => {
      const store = (name: string, content: unknown) =>
        localStorage.setItem(
          `mes-${name}`,
          JSON.stringify({ dataType: typeof content, content, datetime: Date.now() }),
        );
      store('token', token.access_token);
      store('refreshToken', token.refresh_token);
      store('tenantId', token.tenant_id);
      store('userInfo', token);
      store('tags', [home]);
    },
    [token, website.firstPage] as const,
  );
  await page.goto('/wel/index');
  // Home rendered means the app and its router are up: a test may navigate inside it at once.
  await page.getByTestId('welcome').waitFor();
}

interface SignedInToken {
  access_token: string;
  refresh_token: string;
  tenant_id: string;
  [name: string]: unknown;
}

/** The password grant as the web client sends it (md5 of the password, form-encoded). */
async function requestToken(account: string, password: string): Promise<SignedInToken> {
  const res = await fetch(`${baseUrl()}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
      'Tenant-Id': DEFAULT_TENANT_ID,
      'User-Type': 'web',
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      tenantId: DEFAULT_TENANT_ID,
      username: account,
      password: createHash('md5').update(password).digest('hex'),
      grant_type: 'password',
      scope: 'all',
      type: 'account',
    }),
  });
  const body = (await res.json()) as Partial<SignedInToken> & { error_description?: string; msg?: string };
  if (!res.ok || !body.access_token) {
    throw new Error(`sign-in of ${account} refused (${res.status}): ${body.error_description ?? body.msg ?? ''}`);
  }
  return body as SignedInToken;
}

/** Signs in through the sign-in page's form as `account` and waits for home: for tests of the form itself. */
export async function signInThroughForm(page: Page, account: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/wel/index');
  await page.getByTestId('welcome').waitFor();
}

/** Signs in as the admin and opens home. */
export async function signIn(page: Page, password = inject('adminPassword')): Promise<void> {
  await signInAs(page, 'admin', password);
}

/** Saves a screenshot into e2e/screenshots (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
}

/**
 * Calls the API with the page's session (the same headers the app sends) and returns the
 * envelope, so a test can prepare data through the real server.
 */
export function callApi<T>(
  page: Page,
  url: string,
  body?: unknown,
): Promise<{ code: number; success: boolean; data: T; msg: string }> {
  return page.evaluate(
    async ([url, body]) => {
      const token = JSON.parse(localStorage.getItem('mes-token') ?? '{}').content as string;
      const res = await fetch(url as string, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Authorization: `Basic ${btoa('saber:saber_secret')}`,
          'Blade-Auth': `bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    },
    [url, body] as const,
  ) as Promise<{ code: number; success: boolean; data: T; msg: string }>;
}

/** `callApi` that expects success (naming the route and the server's message otherwise) and answers `data`. */
export async function callApiOk<T = string>(page: Page, url: string, body?: unknown): Promise<T> {
  const res = await callApi<T>(page, url, body);
  expect(res.success, `${url}: ${res.msg}`).toBe(true);
  return res.data;
}

/** Screens load lazily and call the API: assertions on them get 15 s. */
export const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000 });

/** The open add / edit / view dialog of a generic screen (antd renders it outside the screen). */
export const crudDialog = (page: Page) => page.locator('.mes-crud-dialog .ant-modal-content');

const OPEN_DROPDOWN = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';

/** The labels an antd select inside `scope` offers: opens it, reads them, and closes it again. */
export async function offeredOptions(page: Page, scope: Locator): Promise<string[]> {
  await scope.locator('.ant-select-selector').click();
  await page.locator(OPEN_DROPDOWN).waitFor();
  const labels = await page.locator(`${OPEN_DROPDOWN} .ant-select-item-option`).allInnerTexts();
  await page.keyboard.press('Escape');
  await page.locator(OPEN_DROPDOWN).waitFor({ state: 'hidden' });
  return labels;
}

/** Picks the option of an antd select inside `scope` whose label is exactly `label` (器械包, not 外来器械包). */
export async function choose(page: Page, scope: Locator, label: string): Promise<void> {
  await scope.locator('.ant-select-selector').click();
  await page.locator(`${OPEN_DROPDOWN} .ant-select-item-option[title=${JSON.stringify(label)}]`).click();
  await page.locator(OPEN_DROPDOWN).waitFor({ state: 'hidden' });
}

/** The add / edit dialog's form item of a field. */
export const formItem = (page: Page, field: string) =>
  crudDialog(page).locator('.ant-form-item', { has: page.locator(`#crud-form_${field}`) });

/**
 * Confirms the open confirmation (antd's Modal.confirm) and waits for the write it makes: the
 * server's answer to the POST whose URL contains `route` must be a success, then the dialog is
 * gone. A confirmed row action whose effect was not seen in 15 s (crud-query, verification-records
 * in full runs) then says which step did not happen: no call (the click was lost), a refusal (its
 * message), a slow server (the answer's wait, allowed 45 s), or a list that did not read again.
 */
export async function confirmWrite(page: Page, route: string, timeout = 45_000): Promise<void> {
  const confirm = page.locator('.ant-modal-confirm');
  await confirm.waitFor();
  const answered = page.waitForResponse((r) => r.url().includes(route) && r.request().method() === 'POST', {
    timeout,
  });
  await confirm.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  const answer = await answered.catch((e: unknown) => {
    throw new Error(`no answer to ${route} within ${timeout} ms of the confirmation's OK: ${String(e)}`);
  });
  const body = (await answer.json()) as { success?: boolean; msg?: string };
  expect(body.success, `${route}: ${answer.status()} ${body.msg ?? ''}`).toBe(true);
  await confirm.waitFor({ state: 'detached' });
}
