import { pino } from 'pino';
import { buildApp } from './app';
import {
  announceDemoPassword,
  readOffer,
  saveDemoPassword,
  seedDemoTenant,
  simulatorCommand,
  writeOffer,
} from './modules/demo';
import { ConfigError, loadConfig, type AppConfig } from './platform/config';
import { claimDataDir, ensureDataDir, readOrCreateSecret } from './platform/data-dir';
import { applyMigrations, connectDatabase } from './platform/db/database';
import { startEmbeddedPostgres } from './platform/db/embedded-postgres';
import { createAppContext } from './runtime';
import { announceAdminPassword } from './seed/announce';
import { seedDatabase } from './seed-database';

/**
 * `npm run seed:demo` (docs/demo.md): fills the demo tenant in the console's database, with the
 * configuration of `npm start` (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR, started for
 * the run and stopped after). The embedded database belongs to one process: while a console runs
 * on the same DATA_DIR this refuses to start (use the welcome page's card, or stop the console).
 * With DATABASE_URL it runs beside a running console on the shared database.
 */
async function run(config: AppConfig): Promise<void> {
  const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel });
  const cleanups: (() => unknown)[] = [];
  try {
    ensureDataDir(config.dataDir);
    if (!config.databaseUrl) cleanups.push(claimDataDir(config.dataDir));
    let url = config.databaseUrl;
    if (!url) {
      const embedded = await startEmbeddedPostgres(config.dataDir, log);
      cleanups.push(() => embedded.stop());
      url = await embedded.ensureDatabase('mes');
    }
    const database = connectDatabase(url);
    cleanups.push(() => database.close());
    await applyMigrations(database);
    const seeded = await seedDatabase(database.db, config.adminPassword);
    if (seeded.generatedAdminPassword) announceAdminPassword(config.dataDir, seeded.generatedAdminPassword);

    const ctx = await createAppContext({
      database,
      databaseUrl: url,
      jwtSecret: config.jwtSecret ?? readOrCreateSecret(config.dataDir, 'jwt-secret'),
      dataDir: config.dataDir,
      redisUrl: config.redisUrl,
      apiLog: config.apiLog,
    });
    cleanups.push(() => ctx.close());
    await ctx.jobs.started();
    const app = await buildApp(ctx, { logger: false });
    cleanups.push(() => app.close());
    await app.ready();

    const offer = await readOffer(ctx.db);
    if (offer.state === 'running')
      throw new Error('the console is filling the demo tenant already (its welcome-page job); wait for it to finish');
    const result = await seedDemoTenant(app, ctx, { now: Date.now() }, (step, done, of) => {
      if (step) process.stdout.write(`[${done + 1}/${of}] ${step}\n`);
    });
    // The first-start card has nothing left to offer.
    if (offer.state === 'offered' || offer.state === 'failed')
      await writeOffer(
        ctx.db,
        {
          state: 'done',
          tenantId: result.tenantId,
          counts: result.made,
          simulate: simulatorCommand(result.tenantId),
          done: 1,
          of: 1,
        },
        offer.raw,
      );

    const made = Object.entries(result.made)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    process.stdout.write(
      `demo tenant ${result.tenantId} ready in ${(result.milliseconds / 1000).toFixed(1)} s; ` +
        `${made || 'nothing new (it was complete)'}\n`,
    );
    if (result.generatedPassword) {
      saveDemoPassword(config.dataDir, result.tenantId, result.generatedPassword);
      announceDemoPassword(result.tenantId, result.generatedPassword, config.dataDir);
    } else {
      process.stdout.write(
        `sign in as tenant ${result.tenantId}, account ${result.account} (password in DATA_DIR/demo-password.txt)\n`,
      );
      process.stdout.write(`keep it moving: ${simulatorCommand(result.tenantId)}\n`);
    }
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const busy = text.startsWith('Another MES Console server')
      ? '\nThe embedded database belongs to the running console: stop it and run seed:demo again, or, as the ' +
        'platform administrator on a fresh install, use the 演示数据 card of the welcome page.'
      : '';
    process.stderr.write(`seed:demo failed: ${text}${busy}\n`);
    process.exitCode = 1;
  } finally {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        log.error({ err: error }, 'seed:demo: a shutdown step failed');
      }
    }
  }
}

try {
  await run(loadConfig());
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  process.stderr.write(`${e.message}\n`);
  process.exitCode = 1;
}
