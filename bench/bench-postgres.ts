import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, connectDatabase } from '../apps/server/src/platform/db/database';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../apps/server/src/platform/db/embedded-postgres';

/** An embedded PostgreSQL cluster of a bench's own, migrated, in a scratch folder. */
export interface BenchPostgres {
  /** The scratch folder (the cluster's data below it); the bench removes it at the end. */
  work: string;
  embedded: EmbeddedPostgres;
  databaseUrl: string;
  /** The cluster's data folder, whose postmaster.pid names the processes whose CPU is counted. */
  clusterDir: string;
}

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

/**
 * Starts a cluster the bench owns (so it can count its CPU and pause it) with the server's
 * migrations applied to database `mes`.
 */
export async function startBenchPostgres(prefix: string): Promise<BenchPostgres> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(work, 0o755);
  const pgRoot = path.join(work, 'pg');
  fs.mkdirSync(pgRoot, { mode: 0o755 });
  const embedded = await startEmbeddedPostgres(pgRoot, quiet);
  const databaseUrl = await embedded.ensureDatabase('mes');
  const locationFile = path.join(pgRoot, 'pg-location');
  const clusterDir = fs.existsSync(locationFile)
    ? fs.readFileSync(locationFile, 'utf8').trim()
    : path.join(pgRoot, 'pg');
  const database = connectDatabase(databaseUrl);
  await applyMigrations(database);
  await database.close();
  return { work, embedded, databaseUrl, clusterDir };
}
