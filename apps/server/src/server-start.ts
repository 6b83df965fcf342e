import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { buildApp } from './app';
import { createDeviceDirectory } from './modules/device';
import { mqttConfig, type AppConfig } from './platform/config';
import { claimDataDir, ensureDataDir, readOrCreateSecret } from './platform/data-dir';
import { applyMigrations, connectDatabase, type Database } from './platform/db/database';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './platform/db/embedded-postgres';
import { installOutageSafetyNet } from './platform/db/outage-safety-net';
import { startTelemetry } from './modules/telemetry';
import { createAppContext } from './runtime';
import { seedDatabase } from './seed-database';
import { announceAdminPassword } from './seed/announce';
import { announceDemoPassword, startDemoSeeding } from './modules/demo';

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/{src,dist} → apps/web/dist; `WEB_DIST` points elsewhere (tests build to their own folder). */
const WEB_DIST = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.resolve(here, '../../web/dist');
const SHUTDOWN_LIMIT_MS = 30_000;

/** Starts the console with settings already checked (main.ts checks them before loading this module). */
export async function startServer(config: AppConfig): Promise<void> {
  const log = pino({ level: config.logLevel });
  installOutageSafetyNet(log);
  const cleanups: (() => unknown)[] = [];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (e) {
        log.error({ err: e }, 'shutdown step failed');
      }
    }
  };

  // Signals are handled from the first step: before, a SIGTERM between listening and the end of
  // startup ended the process at once, leaving the embedded PostgreSQL running.
  let startup: Promise<void> = Promise.resolve();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing in-flight requests and stopping`);
    setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    // A signal while the server is still starting (it answers health checks before telemetry
    // is up) waits for the step under way: a half-started server would leave its PostgreSQL behind.
    void startup.then(cleanUp).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  startup = (async () => {
    try {
      ensureDataDir(config.dataDir);
      cleanups.push(claimDataDir(config.dataDir));

      let embedded: EmbeddedPostgres | undefined;
      let url = config.databaseUrl;
      if (!url) {
        embedded = await startEmbeddedPostgres(config.dataDir, log);
        cleanups.push(() => embedded?.stop());
        url = await embedded.ensureDatabase('mes');
      }
      const database: Database = connectDatabase(url, undefined, (message, error) => log.warn({ err: error }, message));
      cleanups.push(() => database.close());
      await applyMigrations(database);

      const seeded = await seedDatabase(database.db, config.adminPassword);
      if (seeded.generatedAdminPassword) announceAdminPassword(config.dataDir, seeded.generatedAdminPassword);

      const jwtSecret = config.jwtSecret ?? readOrCreateSecret(config.dataDir, 'jwt-secret');
      const ctx = await createAppContext({
        database,
        databaseUrl: url,
        jwtSecret,
        dataDir: config.dataDir,
        redisUrl: config.redisUrl,
        apiLog: config.apiLog,
      });
      // Also stops the job queue (the ephemeral store's purge and log retention are durable jobs
      // started by the context: runtime.ts, docs/jobs.md).
      cleanups.push(() => ctx.close());
      await ctx.jobs.started();

      const app = await buildApp(ctx, {
        webDist: WEB_DIST,
        logger: log,
        trustProxy: config.trustProxy,
        apiDocs: config.apiDocs,
        metricsToken: config.metricsToken,
        fairShares: config.fairShares,
      });
      cleanups.push(() => app.close());
      await app.listen({ port: config.port, host: config.host });
      log.info(`MES Console listening on http://localhost:${config.port}`);
      // SEED_DEMO=true on the start that made the install: the card's job, without the card.
      if (seeded.createdAdmin && config.seedDemo) {
        const started = await startDemoSeeding(ctx, undefined);
        if (started.password) announceDemoPassword(started.tenantId, started.password, config.dataDir);
        log.info(`SEED_DEMO: filling the demo tenant ${started.tenantId} (job ${started.jobId})`);
      }
      // Device telemetry: never stops the console (a busy port or an unreachable broker is logged
      // and retried). Stopped before the context closes, so what is queued is committed first.
      const mqtt = await startTelemetry(ctx, createDeviceDirectory(ctx), mqttConfig(), {
        consoleAt: `http://localhost:${config.port}`,
      });
      cleanups.push(() => mqtt.stop());
    } catch (e) {
      log.fatal({ err: e }, `start failed: ${(e as Error).message}`);
      await cleanUp();
      process.exit(1);
    }
  })();
  await startup;
}
