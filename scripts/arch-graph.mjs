// `npm run arch:graph`: the folder-level picture of ARCHITECTURE.md, drawn from the code's own
// imports. Runs dependency-cruiser with the lint's configuration (.dependency-cruiser.cjs: the
// same resolution of `@mes/contracts`, type-only imports included), folds every file into its
// top folder (apps/server/src/engine, packages/contracts/src/engine, …) and writes a mermaid
// graph and a plain list of the folder arrows between the `arch-graph` marks of ARCHITECTURE.md.
// `--check` writes nothing and fails when the file's picture is not the code's (for a reviewer).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'ARCHITECTURE.md');
const START = '<!-- arch-graph:start (npm run arch:graph writes this part) -->';
const END = '<!-- arch-graph:end -->';
const ROOTS = ['packages/contracts/src', 'apps/server/src', 'apps/web/src'];

// Tests are left out: the picture is of what the product's code stands on.
const json = execFileSync(
  path.join(root, 'node_modules/.bin/depcruise'),
  [...ROOTS, '--config', '.dependency-cruiser.cjs', '--exclude', '\\.test\\.tsx?$|/dist/', '--output-type', 'json'],
  { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
);
const { modules } = JSON.parse(json);

/** The folder a file counts under: its top folder below src, or the src root's own files. */
function folderOf(file) {
  const base = ROOTS.find((r) => file.startsWith(`${r}/`));
  if (!base) return undefined;
  const rest = file.slice(base.length + 1).split('/');
  const app = base.split('/').slice(0, -1).join('/');
  return rest.length === 1 ? `${app}/src (root files)` : `${app}/src/${rest[0]}`;
}

const edges = new Map();
for (const mod of modules) {
  const from = folderOf(mod.source);
  if (!from) continue;
  for (const dep of mod.dependencies) {
    const to = folderOf(dep.resolved);
    if (!to || to === from) continue;
    const key = `${from}\u0000${to}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
  }
}

const folders = [...new Set(modules.map((m) => folderOf(m.source)).filter(Boolean))].sort();
const id = (folder) =>
  folder
    .replace(/ \(root files\)$/, '_root')
    .replace(/^packages\/contracts\/src/, 'contracts')
    .replace(/^apps\/(server|web)\/src/, '$1')
    .replace(/[^A-Za-z0-9_]/g, '_');
const label = (folder) =>
  folder.replace(/^packages\/contracts\/src\/?/, '').replace(/^apps\/(server|web)\/src\/?/, '') || folder;
const groups = [
  ['contracts', 'packages/contracts/src'],
  ['server', 'apps/server/src'],
  ['web', 'apps/web/src'],
];
const sorted = [...edges].sort(([a], [b]) => a.localeCompare(b));

const lines = ['```mermaid', 'flowchart LR'];
for (const [name, base] of groups) {
  lines.push(`  subgraph ${name}["${base}"]`);
  for (const folder of folders.filter((f) => f.startsWith(base)))
    lines.push(`    ${id(folder)}["${label(folder).replace(/^ ?\(root files\)$/, '(root files)')}"]`);
  lines.push('  end');
}
for (const [key] of sorted) {
  const [from, to] = key.split('\u0000');
  lines.push(`  ${id(from)} --> ${id(to)}`);
}
lines.push('```', '', 'The same arrows as text (`from → to: imports`):', '', '```');
for (const [key, count] of sorted) {
  const [from, to] = key.split('\u0000');
  lines.push(`${from} → ${to}: ${count}`);
}
lines.push('```');

const text = fs.readFileSync(target, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) throw new Error(`ARCHITECTURE.md: the marks ${START} … ${END} are missing`);
const next = `${text.slice(0, start + START.length)}\n\n${lines.join('\n')}\n\n${text.slice(end)}`;
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error('ARCHITECTURE.md: the import graph is not the code’s; run `npm run arch:graph`');
    process.exit(1);
  }
  console.log('ARCHITECTURE.md: the import graph is the code’s');
} else {
  fs.writeFileSync(target, next);
  console.log(`ARCHITECTURE.md: ${folders.length} folders, ${edges.size} arrows`);
}
