import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** One line per element: its selector and what fails. */
  nodes: string[];
}

/** WCAG 2.1 A and AA rules: what issue 12 asks the console to meet. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Puts axe-core into the page (once); a page whose CSP refuses the script tag gets it evaluated instead. */
async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => 'axe' in window)) return;
  await page.addScriptTag({ path: axePath }).catch(() => undefined);
  if (await page.evaluate(() => 'axe' in window)) return;
  await page.evaluate(fs.readFileSync(axePath, 'utf8'));
}

/**
 * The critical and serious WCAG 2.1 AA violations axe-core finds on the page as it is now.
 * `exclude` lists selectors of known elements left out of the check (each caller says why).
 */
export async function seriousViolations(page: Page, exclude: string[] = []): Promise<AxeFinding[]> {
  await injectAxe(page);
  return page.evaluate(
    async ({ exclude, tags }) => {
      const axe = (window as unknown as { axe: AxeApi }).axe;
      const result = await axe.run(exclude.length ? { exclude: exclude.map((s) => [s]) } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return result.violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => ({
          id: v.id,
          impact: v.impact ?? '',
          help: v.help,
          nodes: v.nodes.map((n) => `${n.target.join(' ')} :: ${n.failureSummary ?? ''}`.replace(/\s+/g, ' ')),
        }));

      interface AxeApi {
        run(
          context: unknown,
          options: unknown,
        ): Promise<{
          violations: {
            id: string;
            impact?: string | null;
            help: string;
            nodes: { target: string[]; failureSummary?: string }[];
          }[];
        }>;
      }
    },
    { exclude, tags: WCAG_AA },
  );
}
