import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server URL whose user may create databases: each test file makes its own. */
    pgServerUrl: string;
  }
}

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL?.trim();
  if (external) {
    project.provide('pgServerUrl', external);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-test-pg-'));
  const pg = await startEmbeddedPostgres(dir, quiet);
  project.provide('pgServerUrl', pg.adminUrl);
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
