import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting } from '../support/shell';

/**
 * Issue 30 points 2, 3 and 6 as a user sees them: 模型管理 lists the shipped leave process; the
 * BPMN modeler's palette, context pad and properties panel and the server's lint problems speak
 * the interface's language; the welcome page leads with the MES, the account below.
 */
const browser = useBrowser();

const TEXT = {
  zh: {
    palette: '创建开始事件',
    contextPad: '追加任务',
    general: '基本信息',
    processType: '流程',
    lint: '流程缺少结束事件',
    leave: '请假流程',
  },
  en: {
    palette: 'Create start event',
    contextPad: 'Append task',
    general: 'General',
    processType: 'Process',
    lint: 'The process has no end event',
    leave: '请假流程',
  },
} as const;

/** The vertical position of an element's top edge. */
const topOf = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())?.y ?? -1;

for (const lang of ['zh', 'en'] as const) {
  describe(`in ${lang === 'zh' ? 'Chinese' : 'English'}`, () => {
    it('the welcome page shows the equipment before the account and sign-in figures', async () => {
      const { context, page } = await newPage(browser());
      if (lang === 'en') await presetSetting(page, 'language', 'en');
      await signIn(page);
      await page.getByTestId('wel-figures').waitFor();
      await page.getByTestId('wel-account').waitFor();
      const figures = await topOf(page, 'wel-figures');
      expect(figures).toBeGreaterThan(0);
      expect(figures).toBeLessThan(await topOf(page, 'wel-account'));
      expect(figures).toBeLessThan(await topOf(page, 'wel-login-counts'));
      // Of the figures, the open warnings and the sterilisers' release come before the chairs.
      expect(await topOf(page, 'wel-fig-verification')).toBeLessThanOrEqual(await topOf(page, 'wel-fig-chairs'));
      await screenshot(page, `modeler-language-welcome-${lang}`);
      await context.close();
    });

    it('the modeler and its lint problems speak the language; the leave model is listed', async () => {
      const t = TEXT[lang];
      const { context, page } = await newPage(browser());
      if (lang === 'en') await presetSetting(page, 'language', 'en');
      await signIn(page);
      await goInApp(page, '/flow/flow_model');
      const models = page.locator('[data-screen="/flow/flow_model"]');
      await poll(() => models.locator('tbody').innerText()).toContain(t.leave);

      await models.getByTestId('flow-model-add').click();
      const modeler = page.getByTestId('flow-modeler');
      const start = modeler.locator('.djs-element[data-element-id="StartEvent_1"]');
      await start.waitFor();
      // Palette: each tool's name (its accessible name and tooltip) in the language.
      const tool = modeler.locator(`.djs-palette .entry[aria-label="${t.palette}"]`);
      await tool.waitFor();
      await tool.hover();
      // Context pad of the start event.
      await start.click();
      await modeler.locator(`.djs-context-pad .entry[title="${t.contextPad}"]`).waitFor();
      // Properties panel of the process (nothing selected).
      await modeler
        .locator('svg')
        .first()
        .click({ position: { x: 600, y: 400 } });
      const panel = page.getByTestId('flow-properties-panel');
      await poll(() => panel.locator('.bio-properties-panel-header-type').textContent()).toBe(t.processType);
      expect(await panel.locator('.bio-properties-panel-group-header-title').allInnerTexts()).toContain(t.general);
      await screenshot(page, `modeler-language-modeler-${lang}`);

      // A lone start event: the server's linter refuses it in the user's words.
      await page.getByTestId('flow-model-save').click();
      const problems = page.getByTestId('flow-model-problems');
      await poll(() => problems.innerText()).toContain(t.lint);
      expect(await problems.innerText()).not.toContain('end-event-required');
      await screenshot(page, `modeler-language-lint-${lang}`);
      await page.getByTestId('flow-model-cancel').click();
      await context.close();
    });
  });
}
