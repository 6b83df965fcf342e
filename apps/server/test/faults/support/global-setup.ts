import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import serverSetup from '../../support/global-setup';
import { bundleServer } from '../../support/server-bundle';

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

/**
 * The fault suite's PostgreSQL (the server tests' own setup: embedded, or DATABASE_URL's server;
 * each case makes a database of its own) and one bundle of the real server for every process the
 * cases start (support/server-bundle.ts).
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const bundle = await bundleServer('mes-faults');
  const outdir = path.dirname(bundle.entry);
  project.provide('faultsServerEntry', bundle.entry);
  project.provide('faultsStartedAt', started);
  const results = path.join(outdir, 'results.txt');
  fs.writeFileSync(results, '');
  project.provide('faultsResults', results);
  const stopPostgres = await serverSetup(project);
  return async () => {
    await stopPostgres?.();
    process.stdout.write(`\nfault suite results:\n${fs.readFileSync(results, 'utf8')}`);
    bundle.remove();
    process.stdout.write(`fault suite: ${((Date.now() - started) / 1000).toFixed(0)} s in all\n`);
  };
}
