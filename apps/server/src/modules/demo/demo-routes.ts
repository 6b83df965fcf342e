import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  apiScopeCodes,
  DEFAULT_TENANT_ID,
  DEMO_ADMIN_ACCOUNT,
  DEMO_OFFER_PARAM,
  DEMO_PASSWORD_FILE,
  DEMO_TENANT_DISMISS_PATH,
  DEMO_TENANT_ID,
  DEMO_TENANT_NAME,
  DEMO_TENANT_SEED_PATH,
  DEMO_TENANT_STATE_PATH,
  tenantResource,
  type DemoOfferState,
  type DemoSeedReply,
  type DemoTenantStatus,
} from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../app-context';
import { hashPassword, md5Hex } from '../../platform/auth/passwords';
import { isAdministrator, requireAuth } from '../../platform/auth/request-auth';
import { writePrivateFile } from '../../platform/data-dir';
import type { Db } from '../../platform/db/database';
import { param, tenant } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, forbidden } from '../../platform/http/errors';
import { paramsOf } from '../../platform/http/request-params';
import { defineJob } from '../../platform/jobs/job-definition';
import { liveRows } from '../../platform/tenancy/tenant-scope';
import { simulatorCommand } from './demo-data';
import { seedDemoTenant, type DemoResult } from './demo-steps';

/**
 * The first-start offer of the demo tenant (docs/demo.md): a fresh install's platform
 * administrator sees a card on the welcome page, ticks 创建演示租户 and confirms; the seeding runs
 * as a durable job whose progress the card follows; once done or dismissed the card never shows
 * again. The state is the parameter `demo.firstStart` (JSON), created by the seed of a fresh
 * install only, so an install that existed before never offers demo rows.
 */

export const DemoMessages = {
  notConfirmed: '请先勾选“创建演示租户”再确认 (tick “Create the demo tenant” first)',
  notOffered:
    '演示数据只在全新安装首次启动时提供,请在服务器上运行 npm run seed:demo (only offered on first start; run npm run seed:demo)',
  running: '演示数据正在生成 (the demo tenant is being filled)',
  done: '演示租户已创建 (the demo tenant exists already)',
} as const;

export const demoSeedJob = defineJob({
  name: 'demo.seed',
  // The demo administrator's password hash (never the password): made where the password was shown.
  payload: z.object({ passwordHash: z.string().max(200).optional() }),
  retry: { limit: 1, delaySeconds: 30, backoff: false },
  expireInSeconds: 15 * 60,
});

/**
 * The platform's tenant screen grants these (platform-only), and the handler further requires the
 * platform administrator: creating a tenant with a month of rows is not for a delegated tenant clerk.
 */
const READ = apiScopeCodes(tenantResource.code).read;
const WRITE = apiScopeCodes(tenantResource.code).write;

const STATES: readonly DemoOfferState[] = ['offered', 'running', 'done', 'failed', 'dismissed'];

/** The offer's state; absent or unreadable is `none` (no card). */
export async function readOffer(db: Db): Promise<DemoTenantStatus & { raw: string | undefined }> {
  const [row] = await db
    .select({ value: param.paramValue })
    .from(param)
    .where(and(eq(param.paramKey, DEMO_OFFER_PARAM), liveRows(param)))
    .limit(1);
  if (!row) return { state: 'none', raw: undefined };
  try {
    const parsed = JSON.parse(row.value ?? '') as DemoTenantStatus;
    if (STATES.includes(parsed.state)) return { ...parsed, raw: row.value ?? '' };
  } catch {
    // An administrator's edit on 参数管理: no card rather than a broken one.
  }
  return { state: 'none', raw: row.value ?? '' };
}

/**
 * Writes the offer's state; with `from`, only while the stored value is still `from` (compare and
 * set: two confirmations at once start one job). Answers whether it wrote. Never creates the
 * parameter: an install without it has no offer.
 */
export async function writeOffer(db: Db, status: DemoTenantStatus, from?: string): Promise<boolean> {
  const rows = await db
    .update(param)
    .set({ paramValue: JSON.stringify(status) })
    .where(
      and(
        eq(param.paramKey, DEMO_OFFER_PARAM),
        liveRows(param),
        from === undefined ? undefined : eq(param.paramValue, from),
      ),
    )
    .returning({ id: param.id });
  return rows.length > 0;
}

/** The tenant id the demo will take: the demo tenant's own, else DEMO_TENANT_ID or the next free one. */
async function expectedTenantId(db: Db): Promise<{ tenantId: string; exists: boolean }> {
  const [own] = await db
    .select({ tenantId: tenant.tenantId })
    .from(tenant)
    .where(and(eq(tenant.tenantName, DEMO_TENANT_NAME), liveRows(tenant)))
    .limit(1);
  if (own) return { tenantId: own.tenantId, exists: true };
  const taken = new Set((await db.select({ tenantId: tenant.tenantId }).from(tenant)).map((r) => r.tenantId));
  let n = Number(DEMO_TENANT_ID);
  while (taken.has(String(n))) n++;
  return { tenantId: String(n), exists: false };
}

/** Keeps the password where the platform administrator's is kept, readable only by the owner. */
export function saveDemoPassword(dataDir: string, tenantId: string, password: string): string {
  const file = path.join(dataDir, DEMO_PASSWORD_FILE);
  writePrivateFile(file, `tenant ${tenantId}, account ${DEMO_ADMIN_ACCOUNT}, password ${password}\n`);
  return file;
}

/**
 * Starts the seeding job (the card's confirmation, or `SEED_DEMO=true` on the first start): makes
 * the password when the demo tenant is new, keeps it in DATA_DIR, and answers it this once.
 */
export async function startDemoSeeding(ctx: AppContext, from: string | undefined): Promise<DemoSeedReply> {
  const target = await expectedTenantId(ctx.db);
  const password = target.exists ? null : randomBytes(12).toString('base64url');
  const running: DemoTenantStatus = { state: 'running', done: 0, of: 0 };
  if (from !== undefined && !(await writeOffer(ctx.db, running, from))) throw badRequest(DemoMessages.running);
  if (from === undefined) await writeOffer(ctx.db, running);
  if (password) saveDemoPassword(ctx.dataDir, target.tenantId, password);
  const passwordHash = password ? await hashPassword(md5Hex(password)) : undefined;
  const jobId = await ctx.jobs.enqueue(demoSeedJob, passwordHash ? { passwordHash } : {});
  return { jobId: jobId ?? '', tenantId: target.tenantId, account: DEMO_ADMIN_ACCOUNT, password };
}

async function runSeedJob(
  app: FastifyInstance,
  ctx: AppContext,
  passwordHash: string | undefined,
): Promise<DemoResult> {
  let current = '';
  try {
    const result = await seedDemoTenant(
      app,
      ctx,
      { now: ctx.clock.now(), ...(passwordHash ? { passwordHash } : {}) },
      async (step, done, of) => {
        current = step;
        await writeOffer(ctx.db, { state: 'running', step, done, of });
      },
    );
    await writeOffer(ctx.db, {
      state: 'done',
      tenantId: result.tenantId,
      counts: result.made,
      simulate: simulatorCommand(result.tenantId),
      done: 1,
      of: 1,
    });
    return result;
  } catch (error) {
    await writeOffer(ctx.db, {
      state: 'failed',
      step: current,
      error: error instanceof Error ? error.message.slice(0, 500) : String(error),
    });
    throw error;
  }
}

/** Registers the job's handler; `app` is the one whose routes the seeding calls. */
export function registerDemoJob(app: FastifyInstance, ctx: AppContext): void {
  oncePerContext(ctx, demoSeedJob.name, () =>
    ctx.jobs.register(demoSeedJob, async ({ passwordHash }) => {
      const result = await runSeedJob(app, ctx, passwordHash);
      // The job's output is kept in pgboss: counts only, never a password.
      return { tenantId: result.tenantId, made: result.made, milliseconds: result.milliseconds };
    }),
  );
}

export function registerDemoRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerDemoJob(app, ctx);
  const platformAdministrator = (request: Parameters<typeof requireAuth>[0]) => {
    const auth = requireAuth(request);
    if (auth.tenantId !== DEFAULT_TENANT_ID || !isAdministrator(auth)) throw forbidden();
  };

  app.get(`/api${DEMO_TENANT_STATE_PATH}`, { config: { apiScope: READ } }, async (request) => {
    platformAdministrator(request);
    const { raw: _raw, ...status } = await readOffer(ctx.db);
    return ok(status);
  });

  app.post(`/api${DEMO_TENANT_SEED_PATH}`, { config: { apiScope: WRITE } }, async (request) => {
    platformAdministrator(request);
    const confirm = paramsOf(request).confirm;
    if (confirm !== true && confirm !== 'true') throw badRequest(DemoMessages.notConfirmed);
    const offer = await readOffer(ctx.db);
    if (offer.state === 'running') throw badRequest(DemoMessages.running);
    if (offer.state === 'done') throw badRequest(DemoMessages.done);
    if (offer.state !== 'offered' && offer.state !== 'failed') throw badRequest(DemoMessages.notOffered);
    return ok(await startDemoSeeding(ctx, offer.raw));
  });

  app.post(`/api${DEMO_TENANT_DISMISS_PATH}`, { config: { apiScope: WRITE } }, async (request) => {
    platformAdministrator(request);
    const offer = await readOffer(ctx.db);
    if (offer.state === 'running') throw badRequest(DemoMessages.running);
    if (offer.state === 'offered' || offer.state === 'failed')
      await writeOffer(ctx.db, { state: 'dismissed' }, offer.raw);
    return ok(null);
  });
}
