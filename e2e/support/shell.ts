import type { Page } from 'playwright-core';

/** Stores a shell setting the way the app does (`mes-<name>` in local storage) before the app reads it. */
export async function presetSetting(page: Page, name: 'themeName' | 'colorName' | 'language', value: string) {
  await page.addInitScript(
    ([key, content]) =>
      localStorage.setItem(key, JSON.stringify({ dataType: 'string', content, datetime: Date.now() })),
    [`mes-${name}`, value] as const,
  );
}

/** In-app navigation (no reload), as a menu click does it. */
export async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The labels of the open tabs. */
export const tabLabels = (page: Page) => page.locator('[data-testid="tab-bar"] .ant-tabs-tab').allInnerTexts();

/** The stored tabs' paths (what survives a reload). */
export const storedTabPaths = (page: Page) =>
  page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('mes-tags') ?? '{}') as { content?: { value: string }[] }).content?.map(
        (t) => t.value,
      ) ?? [],
  );

/** A computed style property of the first element matching `selector` ('missing' when there is none). */
export const styleOf = (page: Page, selector: string, property: string) =>
  page.evaluate(
    ([s, p]) => {
      const el = document.querySelector(s);
      return el ? getComputedStyle(el).getPropertyValue(p) : 'missing';
    },
    [selector, property] as const,
  );

/**
 * Opens a menu screen by its URL once the signed-in menu is stored (a full load before that
 * would find no menu and land on 404), as a user following a bookmark would.
 */
export async function openMenuScreen(page: Page, path: string): Promise<void> {
  await page.waitForFunction(() => {
    const stored = JSON.parse(localStorage.getItem('mes-menuAll') ?? '{}') as { content?: unknown[] };
    return (stored.content?.length ?? 0) > 0;
  });
  await page.goto(path);
}
