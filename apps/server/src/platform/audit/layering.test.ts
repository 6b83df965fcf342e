import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layering rule of the server: the resource engine (`src/crud`) and the platform
 * (`src/platform`) import no module (`src/modules`). Modules build on the engine and the
 * platform, never the other way round, so a module can be added or removed without touching
 * what every other one stands on.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODULES = path.join(SRC, 'modules');
const LOWER_LAYERS = ['crud', 'platform'];

/** Every TypeScript file under a folder. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The specifiers by which a file imports or re-exports, statically,
 * as types or dynamically (TypeScript's own scanner, so comments and strings do not count).
 */
function moduleImports(file: string, text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => {
      if (!specifier.startsWith('.')) return false;
      const target = path.resolve(path.dirname(file), specifier);
      return target === MODULES || target.startsWith(`${MODULES}${path.sep}`);
    });
}

describe('layering: the engine and the platform import no module', () => {
  it('finds an import of a module however it is written', () => {
    const file = path.join(SRC, 'crud', 'example.ts');
    const text = [
      "import { a } from '../modules/log/operation-log';",
      "import type { B } from '../platform/db/database';",
      "export * from '../modules/user/user-view';",
      "const c = await import('../modules/system');",
      "// import { d } from '../modules/commented-out';",
      "const e = '../modules/just-a-string';",
    ].join('\n');
    expect(moduleImports(file, text)).toEqual([
      '../modules/log/operation-log',
      '../modules/user/user-view',
      '../modules/system',
    ]);
    expect(moduleImports(path.join(SRC, 'platform', 'audit', 'x.ts'), "import '../../modules/log';")).toEqual([
      '../../modules/log',
    ]);
    expect(moduleImports(path.join(SRC, 'platform', 'audit', 'x.ts'), "import { y } from '../db/schema';")).toEqual([]);
  });

  it.each(LOWER_LAYERS)('no file under src/%s imports from src/modules', (layer) => {
    const offenders = sourceFiles(path.join(SRC, layer)).flatMap((file) =>
      moduleImports(file, fs.readFileSync(file, 'utf8')).map(
        (specifier) => `${path.relative(SRC, file)} imports ${specifier}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
