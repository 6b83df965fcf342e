import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';

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
 * One Chromium for the spec file that calls it, launched before its tests and closed after:
 * `const browser = useBrowser();` then `newPage(browser())`.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  return () => {
    if (!browser) throw new Error('the browser starts in beforeAll');
    return browser;
  };
}

export const baseUrl = () => inject('baseUrl');

export async function newPage(
  browser: Browser,
  viewport = { width: 1440, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, locale: 'zh-CN' });
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the sign-in page as `account` and waits for the home route. */
export async function signInAs(page: Page, account: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/wel/index');
}

/** Signs in through the sign-in page as the admin and waits for home. */
export async function signIn(page: Page, password = inject('adminPassword')): Promise<void> {
  await signInAs(page, 'admin', password);
  await page.getByTestId('welcome').waitFor();
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
