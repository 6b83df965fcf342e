import type { ModuleDeclaration } from 'didi';

import { ZH_BPMN } from './zh-dictionary';

/**
 * bpmn-js asks `translate` for every text it shows (palette, context pad, menus, the properties
 * panel); the Chinese interface's modeler answers from `ZH_BPMN`, anything missing falls back
 * to the English template.
 */
function translate(template: string, replacements: Record<string, string> = {}): string {
  return (ZH_BPMN[template] ?? template).replace(/{([^}]+)}/g, (_, key: string) => replacements[key] ?? `{${key}}`);
}

/** bpmn-js's `translate` service in Chinese, for the modeler of a Chinese interface. */
export const zhTranslateModule: ModuleDeclaration = { translate: ['value', translate] };
