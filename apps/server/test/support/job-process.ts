/**
 * A server process (apps/server/test/job-crash.test.ts): the app context and app as `main.ts`
 * builds them (job queue, process registry, report jobs) on `DATABASE_URL` and `DATA_DIR`,
 * with short intervals (`HEARTBEAT_MS`, `DEAD_AFTER_MS`). With `ENQUEUE=xlsx` it first queues one
 * report file of the built-in warnings report as tenant 000000's `admin`; with `ENQUEUE=escalation`
 * it runs one escalation sweep (the test has saved the step and the warning), which queues the
 * step's SMS job. Prints one JSON line each: `{"file": id}` once queued, `{"escalated": n}` after
 * the sweep, `{"ready": true}` once its queue runs.
 */
import { eq, and } from 'drizzle-orm';
import { connectDatabase } from '../../src/platform/db/database';
import { reportTemplate, user } from '../../src/platform/db/schema';
import { queueReport } from '../../src/modules/report/report-runs';
import { escalateWarnings } from '../../src/modules/warning/escalation';
import { buildApp } from '../../src/app';
import { createAppContext } from '../../src/runtime';

const env = process.env;
const databaseUrl = env.DATABASE_URL ?? '';
const database = connectDatabase(databaseUrl, 4);
const ctx = await createAppContext({
  database,
  databaseUrl,
  jwtSecret: 'x'.repeat(64),
  dataDir: env.DATA_DIR ?? '',
  apiLog: false,
  jobs: { pollingIntervalSeconds: 0.5 },
  cluster: { heartbeatMs: Number(env.HEARTBEAT_MS ?? 300), deadAfterMs: Number(env.DEAD_AFTER_MS ?? 2000) },
});
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
// The whole app, as a server builds it: its route modules register the report sources and jobs.
await (await buildApp(ctx)).ready();
await ctx.jobs.started();
if (env.ENQUEUE === 'xlsx' || env.ENQUEUE === 'pdf') {
  const format = env.ENQUEUE;
  const [admin] = await database.db
    .select()
    .from(user)
    .where(and(eq(user.tenantId, '000000'), eq(user.account, 'admin')));
  const [template] = await database.db
    .select()
    .from(reportTemplate)
    .where(and(eq(reportTemplate.tenantId, '000000'), eq(reportTemplate.code, 'builtin.warnings-by-device-level')));
  if (!admin || !template) throw new Error('seed first: no admin or no built-in template');
  const id = await database.db.transaction((tx) =>
    queueReport(ctx, tx, {
      tenantId: '000000',
      userId: admin.id,
      userName: admin.account,
      deptId: admin.deptId ?? '',
      template: { id: template.id, name: template.name },
      format,
      params: { from: '2026-10-01', to: '2026-10-31' },
      at: new Date(),
    }),
  );
  say({ file: id });
}
if (env.ENQUEUE === 'escalation') say(await escalateWarnings(ctx, new Date()));
say({ ready: true, instance: ctx.cluster.instanceId });
// Runs until killed.
setInterval(() => undefined, 1 << 30);
