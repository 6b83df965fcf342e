import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
// The fault suite's helpers (server processes, devices, the tally) read what its setup provides;
// the import brings those declarations (`faultsResults`) into this project's types.
import type {} from '../../../apps/server/test/faults/support/global-setup';
import { bundleServer } from '../../../apps/server/test/support/server-bundle';
import { HAPROXY } from './haproxy';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server bundled to plain JS: every process of the cluster runs it. */
    clusterServerEntry: string;
    /** A PostgreSQL server URL whose user may create databases (the test makes and drops its own). */
    clusterPgServerUrl: string;
    /** Redis of the machine (the test takes a numbered database of its own on it). */
    clusterRedisUrl: string;
    /** The built web app the servers serve to the browser. */
    clusterWebDist: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The cluster test's world outside the test (docs/deploy.md "The cluster test"): the machine's
 * PostgreSQL (CLUSTER_DATABASE_URL or DATABASE_URL, else 127.0.0.1:5432) and Redis
 * (CLUSTER_REDIS_URL or REDIS_URL, else 127.0.0.1:6379), one bundle of the server, and the web
 * build (`npm run test:cluster` builds it first). HAProxy and Mosquitto must be installed.
 */
export default async function setup(project: TestProject) {
  for (const [binary, pkg] of [
    [HAPROXY, 'haproxy'],
    ['/usr/sbin/mosquitto', 'mosquitto'],
  ] as const) {
    if (!fs.existsSync(binary)) throw new Error(`${binary} is missing: apt-get install ${pkg}`);
  }
  const webDist = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(root, 'apps/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`No web build in ${webDist}: run npm run build -w @mes/web (npm run test:cluster does it).`);
  }
  const started = Date.now();
  const bundle = await bundleServer('mes-cluster');
  const results = path.join(path.dirname(bundle.entry), 'results.txt');
  fs.writeFileSync(results, '');
  project.provide('clusterServerEntry', bundle.entry);
  project.provide('faultsResults', results);
  project.provide(
    'clusterPgServerUrl',
    process.env.CLUSTER_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  project.provide(
    'clusterRedisUrl',
    process.env.CLUSTER_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  );
  project.provide('clusterWebDist', webDist);
  return () => {
    process.stdout.write(`\ncluster test results:\n${fs.readFileSync(results, 'utf8')}`);
    bundle.remove();
    process.stdout.write(`cluster test: ${((Date.now() - started) / 1000).toFixed(0)} s in all\n`);
  };
}
