import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The source files (`.ts`, `.tsx`, tests left out) below `dir`, for the tests that read the code
 * itself (texts rule, data-layer rule); folders in `skip` are not entered.
 */
export function sourceFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.includes(path) ? [] : sourceFiles(path, skip);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
