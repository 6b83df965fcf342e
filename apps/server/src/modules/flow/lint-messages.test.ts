import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { LINT_RULES_WITH_TEXT, lintProblem } from './lint-messages';

const load = createRequire(import.meta.url);

describe('bpmnlint problems in the caller language', () => {
  it('word every rule of the recommended set the server lints with', () => {
    const recommended = load('bpmnlint/config/recommended') as { rules: Record<string, unknown> };
    const rules = Object.keys(recommended.rules);
    expect(rules).toContain('end-event-required');
    expect(rules.filter((r) => !LINT_RULES_WITH_TEXT.includes(r))).toEqual([]);
  });

  it('name the element, and keep an unknown rule with its own message', () => {
    expect(lintProblem('end-event-required', 'Process is missing end event', 'p1')).toEqual({
      zh: '流程缺少结束事件 (p1)',
      en: 'The process has no end event (p1)',
    });
    expect(lintProblem('future-rule', 'Something odd', undefined)).toEqual({
      zh: 'future-rule: Something odd',
      en: 'future-rule: Something odd',
    });
  });
});
