import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../test-support/source-files';

/**
 * Screens read through queries and write through the data layer (`api/server-state.ts`,
 * `api/use-api.ts`), and name routes by definition or by a constant from contracts: a route
 * written in a page, or a page calling the HTTP client itself, is a call the cache cannot
 * share, key or invalidate by resource.
 */
const PAGES = fileURLToPath(new URL('.', import.meta.url));

/** Each offending line of `source` as `file:line: text`. */
export function offences(file: string, source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, index) => {
    // A route literal (`'/blade-…'`, "/blade-…" or `/blade-…`) or a direct call of the HTTP client.
    const code = line.replace(/\/\/.*$/, '');
    const call = /\brequest(Data)?\s*[<(]/.test(code);
    const imported = /from '[./]*\/api\/http'/.test(code) && /\brequest(Data)?\b/.test(code);
    if (/['"`]\/blade-/.test(line) || call || imported) found.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return found;
}

describe('pages go through the data layer', () => {
  it('the scan finds a route literal and a direct call', () => {
    expect(offences('a.tsx', "const r = '/blade-system/dept/tree';")).toHaveLength(1);
    expect(offences('a.tsx', 'void requestData<Row>(DEPT_TREE_PATH);')).toHaveLength(1);
    expect(offences('a.tsx', "import { request } from '../../api/http';")).toHaveLength(1);
    expect(offences('a.tsx', 'const tree = useApiRead(DEPT_TREE_PATH);')).toEqual([]);
  });

  it('no page file holds a /blade- route or calls the HTTP client', () => {
    const found = sourceFiles(PAGES).flatMap((path) => offences(relative(PAGES, path), readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});
