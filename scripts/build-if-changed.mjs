// `npm start`'s build step: builds the web app and the server only when their sources changed
// since the last build, so that starting an unchanged checkout takes seconds instead of a minute
// of bundling and compressing. Each build leaves a fingerprint of its inputs (content hashes of
// every source file, the lockfile and the build's own config) in its dist folder; a missing or
// different fingerprint means build. `npm run build` still builds unconditionally.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIP = new Set(['node_modules', 'dist', '.git', 'screenshots']);

const targets = [
  {
    name: 'web app',
    workspace: '@mes/web',
    dist: 'apps/web/dist',
    inputs: [
      'apps/web/src',
      'apps/web/scripts',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
    ],
  },
  {
    name: 'server',
    workspace: '@mes/server',
    dist: 'apps/server/dist',
    inputs: ['apps/server/src', 'apps/server/build.mjs', 'apps/server/package.json'],
  },
];
const shared = ['packages/contracts/src', 'package-lock.json'];

function filesUnder(relative, out) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) {
      if (!SKIP.has(name)) filesUnder(path.join(relative, name), out);
    }
  } else out.push(relative);
}

function fingerprint(inputs) {
  const files = [];
  for (const input of [...inputs, ...shared]) filesUnder(input, files);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

for (const target of targets) {
  const stamp = path.join(root, target.dist, '.build-fingerprint');
  const wanted = fingerprint(target.inputs);
  const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  if (built === wanted) {
    console.log(`${target.name}: unchanged since its last build, not rebuilt`);
    continue;
  }
  console.log(`${target.name}: ${built ? 'sources changed' : 'no build yet'}, building`);
  const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, `${wanted}\n`);
}
