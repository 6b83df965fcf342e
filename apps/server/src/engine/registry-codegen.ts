import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
// Not through '@mes/contracts': that imports the generated list, which may be the stale one to fix.
import { isRegistryEntry, isScreenDef } from '../../../../packages/contracts/src/definitions/registry-entry';
import { isAggregate } from '../../../../packages/contracts/src/engine/aggregate';

/**
 * Writes the two files that make a definition file enough (run by `npm run db:generate`, before
 * drizzle-kit): the registry's list in contracts, and the table of every resource definition as a
 * named export of the schema, which is where drizzle-kit looks for tables. Both are generated
 * from the files under `packages/contracts/src/definitions`, so no list is kept by hand.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../../..');
export const RESOURCES_DIR = path.join(ROOT, 'packages/contracts/src/definitions');
export const DEFINITIONS_FILE = path.join(RESOURCES_DIR, 'definitions.ts');
export const TABLES_FILE = path.join(ROOT, 'apps/server/src/platform/db/schema/resource-tables.ts');

/** Files of the folder that hold no definition of their own. */
const NOT_DEFINITIONS = new Set(['index.ts', 'definitions.ts', 'registry.ts', 'registry-entry.ts']);

/** A definition found in a file: where it is exported from, and whether it has a table. */
export interface FoundDefinition {
  /** Path from the resources folder, without extension, with `/`: `system/post`. */
  module: string;
  exportName: string;
  hasTable: boolean;
}

function definitionFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...definitionFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !NOT_DEFINITIONS.has(entry.name))
      out.push(full);
  }
  return out;
}

/** The definitions exported by the files under `dir`, ordered by file, then export name. */
export async function findDefinitions(dir = RESOURCES_DIR): Promise<FoundDefinition[]> {
  const seen = new Set<unknown>();
  const found: FoundDefinition[] = [];
  const modules = definitionFiles(dir)
    .map((file) => ({ file, module: path.relative(dir, file).replace(/\\/g, '/').replace(/\.ts$/, '') }))
    .sort((a, b) => a.module.localeCompare(b.module));
  for (const { file, module } of modules) {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const exportName of Object.keys(exports).sort()) {
      const value = exports[exportName];
      // A definition re-exported by another file counts once, where it is first met.
      if (!isRegistryEntry(value) || seen.has(value)) continue;
      seen.add(value);
      // A screen has no table; an aggregate reads a view (made by a migration) or a query.
      found.push({ module, exportName, hasTable: !isScreenDef(value) && !isAggregate(value) });
    }
  }
  return found;
}

const GENERATED_NOTE = (what: string) =>
  `// Written by \`npm run db:generate\` (apps/server/src/engine/registry-codegen.ts): ${what}. Do not edit.`;

/** The contracts module listing every definition, keyed by export name (types kept). */
export function definitionsSource(found: readonly FoundDefinition[]): string {
  const byModule = new Map<string, string[]>();
  for (const d of found) byModule.set(d.module, [...(byModule.get(d.module) ?? []), d.exportName]);
  const imports = [...byModule].map(([module, names]) => `import { ${names.join(', ')} } from './${module}';`);
  return [
    GENERATED_NOTE('every definition exported under packages/contracts/src/definitions'),
    ...imports,
    '',
    '/** Every definition, by export name; `REGISTRY` (registry.ts) is its list. */',
    `export const DEFINITIONS = { ${found.map((d) => d.exportName).join(', ')} } as const;`,
    '',
  ].join('\n');
}

/** `postResource` → `post`: the name the table is exported under in the schema. */
export const tableExportName = (exportName: string) =>
  exportName.endsWith('Resource') ? exportName.slice(0, -'Resource'.length) : `${exportName}Table`;

/** The schema module exporting the table of every resource definition. */
export function tablesSource(found: readonly FoundDefinition[]): string {
  const tables = found.filter((d) => d.hasTable);
  return [
    GENERATED_NOTE('the table of every resource definition, where drizzle-kit finds it'),
    "import { DEFINITIONS } from '@mes/contracts';",
    "import { resourceTable } from '../resource-table';",
    '',
    ...tables.map((d) => `export const ${tableExportName(d.exportName)} = resourceTable(DEFINITIONS.${d.exportName});`),
    '',
  ].join('\n');
}

async function formatted(file: string, source: string): Promise<string> {
  const options = (await resolveConfig(file)) ?? {};
  return format(source, { ...options, filepath: file });
}

/** The generated files as they should be: path → content. */
export async function registryFiles(dir = RESOURCES_DIR): Promise<Map<string, string>> {
  const found = await findDefinitions(dir);
  return new Map([
    [DEFINITIONS_FILE, await formatted(DEFINITIONS_FILE, definitionsSource(found))],
    [TABLES_FILE, await formatted(TABLES_FILE, tablesSource(found))],
  ]);
}

async function main(): Promise<void> {
  for (const [file, content] of await registryFiles()) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === content) continue;
    fs.writeFileSync(file, content);
    console.log(`registry: wrote ${path.relative(ROOT, file)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
