import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
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
const SRC = fileURLToPath(new URL('..', import.meta.url));
const API = fileURLToPath(new URL('../api', import.meta.url));

/** A route literal: `'/blade-…'`, "/blade-…" or `/blade-…`. */
const ROUTE_LITERAL = /['"`]\/blade-/;

/** Each offending line of `source` as `file:line: text`. */
export function offences(file: string, source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, index) => {
    // A route literal or a direct call of the HTTP client.
    const code = line.replace(/\/\/.*$/, '');
    const call = /\brequest(Data)?\s*[<(]/.test(code);
    const imported = /from '[./]*\/api\/http'/.test(code) && /\brequest(Data)?\b/.test(code);
    if (ROUTE_LITERAL.test(line) || call || imported) found.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return found;
}

/** Each line of `source` holding a route literal, as `file:line: text`. */
export function routeLiterals(file: string, source: string): string[] {
  return source
    .split('\n')
    .flatMap((line, index) => (ROUTE_LITERAL.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

/** The HTTP client's calls and the data layer's own fetches, by name. */
const FETCHES = ['request', 'requestData', 'fetch', 'apiGet', 'apiPost', 'apiPostReply'];

/**
 * What each `api/` module of calls exports (a module that calls the HTTP client): each is a
 * request. The data layer itself is left out: its requests are `FETCHES`, the rest are queries
 * and cache marks.
 */
function apiCalls(): Map<string, string[]> {
  const calls = new Map<string, string[]>();
  for (const path of sourceFiles(API)) {
    const source = readFileSync(path, 'utf8');
    if (!/from '\.\/http'/.test(source) || basename(path) === 'server-state.ts') continue;
    const names = [...source.matchAll(/^export (?:async )?(?:function|const) (\w+)/gm)].map((m) => m[1] as string);
    calls.set(
      basename(path).replace(/\.tsx?$/, ''),
      names.filter((name) => !/^use[A-Z]/.test(name)),
    );
  }
  return calls;
}

/** The text of each `useEffect(…)` call of `source`, with the line it starts on. */
function effects(source: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  for (let start = source.indexOf('useEffect('); start >= 0; start = source.indexOf('useEffect(', start + 1)) {
    let depth = 0;
    let end = start + 'useEffect'.length;
    do {
      const c = source[end];
      if (c === '(' || c === '{' || c === '[') depth++;
      else if (c === ')' || c === '}' || c === ']') depth--;
      end++;
    } while (depth > 0 && end < source.length);
    found.push({ line: source.slice(0, start).split('\n').length, text: source.slice(start, end) });
  }
  return found;
}

/**
 * Each effect of `source` that makes a request (`file:line: name`): a call of the HTTP client or
 * the data layer, of a local `fetchX`, or of a function `source` imports from an `api/` module
 * of `calls`. A read belongs in a query (keyed, shared, cancelled, retried); a write in a handler.
 */
export function effectFetches(file: string, source: string, calls: ReadonlyMap<string, string[]>): string[] {
  const names = new Set(FETCHES);
  for (const m of source.matchAll(/import \{([^}]*)\} from '[./]*\/api\/([\w-]+)'/g)) {
    const exported = new Set(calls.get(m[2] as string) ?? []);
    for (const part of (m[1] as string).split(',')) {
      const [name, alias] = part
        .replace(/^\s*type\s/, '')
        .trim()
        .split(/\s+as\s+/);
      if (name && exported.has(name)) names.add(alias ?? name);
    }
  }
  return effects(source).flatMap(({ line, text }) => {
    const called = [...text.matchAll(/\b(\w+)\s*(?:<[^>()]*>)?\(/g)]
      .map((m) => m[1] as string)
      .filter((name) => names.has(name) || /^fetch[A-Z]/.test(name));
    return called.length ? [`${file}:${line}: ${[...new Set(called)].join(', ')}`] : [];
  });
}

/**
 * The public pages before sign-in load without the query client (the sign-in page's first-load
 * budget), so their reads are effects over `api/` calls (ARCHITECTURE.md, "How a screen reads
 * and writes").
 */
const WITHOUT_QUERY_CLIENT = ['pages/login/', 'pages/oauth-callback/', 'shell/register/'];

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

describe('routes are named in contracts', () => {
  it('the scan finds a route literal in code and in a comment', () => {
    expect(routeLiterals('a.ts', 'requestData(`/blade-log/error/upload`)')).toHaveLength(1);
    expect(routeLiterals('a.ts', '/** A tree route (`/blade-system/dept/tree`). */')).toHaveLength(1);
    expect(routeLiterals('a.ts', 'requestData(ERROR_LOG_UPLOAD_PATH)')).toEqual([]);
  });

  it('no file of the web app holds a /blade- route, the api layer included', () => {
    const found = sourceFiles(SRC).flatMap((path) => routeLiterals(relative(SRC, path), readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});

describe('no fetch in an effect', () => {
  const calls = new Map([['auth', ['fetchUserInfo', 'signOutOnServer']]]);

  it('the scan finds a request in an effect, by the client, the data layer or an api/ call', () => {
    const effect = (body: string) => `useEffect(() => {\n  let live = true;\n  ${body}\n}, []);`;
    expect(effectFetches('a.tsx', effect('void requestData<boolean>(X).then(set);'), calls)).toEqual([
      'a.tsx:1: requestData',
    ]);
    expect(effectFetches('a.tsx', effect("void fetch('/api/x');"), calls)).toHaveLength(1);
    expect(effectFetches('a.tsx', effect('void apiGet(X, {}).then(set);'), calls)).toHaveLength(1);
    const imported = "import { signOutOnServer as leave } from '../../api/auth';\n";
    expect(effectFetches('a.tsx', imported + effect('void leave();'), calls)).toEqual(['a.tsx:2: leave']);
    expect(effectFetches('a.tsx', effect('void fetchHostTenant().then(set);'), calls)).toHaveLength(1);
  });

  it('the scan leaves timers, subscriptions and calls outside effects alone', () => {
    const imported = "import { signOutOnServer } from '../../api/auth';\n";
    const source = `${imported}const leave = () => void signOutOnServer();\nuseEffect(() => {\n  const t = setTimeout(() => void refetch(), 10);\n  return () => clearTimeout(t);\n}, [refetch]);`;
    expect(effectFetches('a.tsx', source, calls)).toEqual([]);
  });

  it('no file of the web app requests in an effect, but the pages without the query client', () => {
    const api = apiCalls();
    const found = sourceFiles(SRC)
      .map((path) => relative(SRC, path).split('\\').join('/'))
      .filter((file) => !WITHOUT_QUERY_CLIENT.some((folder) => file.startsWith(folder)))
      .flatMap((file) => effectFetches(file, readFileSync(`${SRC}/${file}`, 'utf8'), api));
    expect(found).toEqual([]);
  });
});
