import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/app-context';
import { buildApp } from '../../src/app';
import { connectDatabase, type Database } from '../../src/platform/db/database';
import { createAppContext } from '../../src/runtime';
import type { TestApp } from './test-app';

/** A second server process on a test app's database, as a second API process would be. */
export interface SecondProcess {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  dataDir: string;
  close(): Promise<void>;
}

/** Starts one beside `t` (same database, secret and clock, a data directory of its own). */
export async function startSecondProcess(t: TestApp): Promise<SecondProcess> {
  const database = connectDatabase(t.databaseUrl, 3);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-test-second-'));
  const ctx = await createAppContext({
    database,
    databaseUrl: t.databaseUrl,
    jwtSecret: t.jwtSecret,
    clock: t.clock,
    dataDir,
  });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    database,
    dataDir,
    async close() {
      await app.close();
      await ctx.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
