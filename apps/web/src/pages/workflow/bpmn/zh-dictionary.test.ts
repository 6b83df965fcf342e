import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZH_BPMN } from './zh-dictionary';

/** The texts a bpmn-js source file passes to `translate('…')`. */
function translatedIn(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/translate\(\s*'([^']+)'/g)].map((m) => m[1] ?? '');
}

const bpmnJs = path.dirname(createRequire(import.meta.url).resolve('bpmn-js/package.json'));
const features = (...parts: string[]) => path.join(bpmnJs, 'lib', 'features', ...parts);

describe('the modeler in Chinese', () => {
  it('has every palette and context-pad text of the installed bpmn-js', () => {
    const texts = [
      ...translatedIn(features('palette', 'PaletteProvider.js')),
      ...translatedIn(features('context-pad', 'ContextPadProvider.js')),
    ];
    expect(texts.length).toBeGreaterThan(20);
    expect(texts.filter((t) => !(t in ZH_BPMN))).toEqual([]);
  });

  it('has every entry of the 更改类型 menu', () => {
    const source = fs.readFileSync(features('popup-menu', 'PopupEntries.js'), 'utf8');
    const labels = [...source.matchAll(/label: '([^']+)'/g)].map((m) => m[1] ?? '');
    expect(labels).toContain('User task');
    expect(labels.filter((l) => !(l in ZH_BPMN))).toEqual([]);
  });
});
