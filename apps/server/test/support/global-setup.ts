import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres';
import { bundleServer } from './server-bundle';
import { createTemplateDatabase } from './template-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server URL whose user may create databases: each test file makes its own. */
    pgServerUrl: string;
    /** A migrated and seeded database on that server, copied for each test app (test-database.ts). */
    seededTemplate: string;
    /** The server bundled to plain JS (server-bundle.ts), for tests that start it as a process. */
    serverEntry: string;
  }
}

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL?.trim();
  let stopServer = async () => undefined;
  let serverUrl: string;
  if (external) {
    serverUrl = external;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-test-pg-'));
    const pg = await startEmbeddedPostgres(dir, quiet);
    serverUrl = pg.adminUrl;
    stopServer = async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const [template, bundle] = await Promise.all([createTemplateDatabase(serverUrl), bundleServer('mes-server-tests')]);
  project.provide('pgServerUrl', serverUrl);
  project.provide('seededTemplate', template.name);
  project.provide('serverEntry', bundle.entry);
  return async () => {
    bundle.remove();
    await template.drop();
    await stopServer();
  };
}
