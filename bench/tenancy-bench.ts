/**
 * `node --import tsx bench/tenancy-bench.ts`: the two ways of keeping a tenant to its own rows
 * (issue 13 point 7), measured in the same run on the same tables and the same query mix:
 *
 * - **helper**: the queries carry `tenant_id = $n` (and `is_deleted = 0`), built by `tenantScope`
 *   (apps/server/src/platform/tenancy), as the server runs them;
 * - **rls**: PostgreSQL row-level security on `blade_user` (`tenant_id =
 *   current_setting('app.tenant_id')`), the queries built without a tenant condition, and the
 *   tenant set per transaction with `set_config('app.tenant_id', $1, true)` (= `SET LOCAL`),
 *   run as a role without BYPASSRLS, as an application would have to.
 *
 * One "request" is one transaction: a user by id, a 10-row page, the page's total and an update
 * of one user by id, for a random tenant and user. Rounds alternate helper / rls so drift of the
 * machine hits both; figures and the rls / helper ratios are printed. The database is
 * DATABASE_URL's server (a database of its own, dropped afterwards), else an embedded
 * PostgreSQL the bench starts. BENCH_SECONDS (per round, default 4), BENCH_ROUNDS (default 5),
 * BENCH_TENANTS (default 20), BENCH_USERS_PER_TENANT (default 5000), BENCH_CONCURRENCY
 * (default 8).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { applyMigrations, connectDatabase, type Db } from '../apps/server/src/platform/db/database';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../apps/server/src/platform/db/embedded-postgres';
import * as schema from '../apps/server/src/platform/db/schema';
import { tenantScope } from '../apps/server/src/platform/tenancy/tenant-scope';

const { user } = schema;
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 20);
const PER_TENANT = Number(process.env.BENCH_USERS_PER_TENANT ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const RLS_ROLE = 'mes_tenancy_bench';

const tenantOf = (i: number) => `T${String(i).padStart(5, '0')}`;
/** User ids: tenant i holds 3000000000000000000 + i * 1e6 + 1 ... + PER_TENANT. */
const userIdOf = (t: number, n: number) => (3_000_000_000_000_000_000n + BigInt(t) * 1_000_000n + BigInt(n)).toString();
const pick = (n: number) => Math.floor(Math.random() * n);

/** A database of its own on DATABASE_URL's server, or on an embedded PostgreSQL. */
async function openDatabase(): Promise<{ url: string; done: () => Promise<void> }> {
  const server = process.env.DATABASE_URL;
  const name = `mes_tenancy_bench_${randomBytes(4).toString('hex')}`;
  if (server) {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      done: async () => {
        const c = new pg.Client({ connectionString: server });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-tenancy-bench-'));
  fs.chmodSync(dataDir, 0o755);
  fs.mkdirSync(path.join(dataDir, 'pg'), { mode: 0o755 });
  const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
  const embedded: EmbeddedPostgres = await startEmbeddedPostgres(path.join(dataDir, 'pg'), quiet);
  return { url: await embedded.ensureDatabase(name), done: () => embedded.stop() };
}

/** The users of every tenant, the RLS policy, and a role it applies to. */
async function prepare(url: string): Promise<void> {
  const database = connectDatabase(url, 2);
  await applyMigrations(database);
  const client = await database.pool.connect();
  try {
    await client.query(
      `insert into blade_user (id, tenant_id, account, password, name, real_name, role_id, dept_id, user_type)
       select 3000000000000000000 + t * 1000000 + n, 'T' || lpad(t::text, 5, '0'), 'u' || n, 'x', 'User ' || n,
              '用户' || n, '1', '1', 1
       from generate_series(0, $1::int - 1) as t, generate_series(1, $2::int) as n`,
      [TENANTS, PER_TENANT],
    );
    await client.query('analyze blade_user');
    await client.query(`do $$ begin
        if not exists (select 1 from pg_roles where rolname = '${RLS_ROLE}') then
          create role ${RLS_ROLE} nologin nobypassrls;
        end if;
      end $$`);
    await client.query(`grant select, update on blade_user to ${RLS_ROLE}`);
    await client.query('alter table blade_user enable row level security');
    // `true`: an unset tenant reads as null, which matches no row (the failure mode is "nothing").
    await client.query(
      `create policy tenant_rows on blade_user using (tenant_id = current_setting('app.tenant_id', true))`,
    );
  } finally {
    client.release();
    await database.close();
  }
}

type Request = (db: Db, tenant: number) => Promise<void>;

/** The mix through the scoped helper: every query carries its tenant condition. */
const helperRequest: Request = (db, t) =>
  db.transaction(async (tx) => {
    const scope = tenantScope(tx, tenantOf(t));
    const id = userIdOf(t, 1 + pick(PER_TENANT));
    await scope.select(user).where(eq(user.id, id)).limit(1);
    await scope
      .select(user, { id: user.id, account: user.account, realName: user.realName })
      .where()
      .orderBy(user.id)
      .limit(10);
    await scope.select(user, { n: count() }).where();
    await scope
      .update(user)
      .set({ realName: `改${pick(1000)}`, updateTime: new Date() })
      .where(eq(user.id, id));
  });

/** The same mix under row-level security: the tenant set once per transaction, no conditions. */
const rlsRequest: Request = (db, t) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.tenant_id', ${tenantOf(t)}, true)`);
    const id = userIdOf(t, 1 + pick(PER_TENANT));
    const live = sql`${user.isDeleted} = 0`;
    await tx
      .select()
      .from(user)
      .where(sql`${eq(user.id, id)} and ${live}`)
      .limit(1);
    await tx
      .select({ id: user.id, account: user.account, realName: user.realName })
      .from(user)
      .where(live)
      .orderBy(user.id)
      .limit(10);
    await tx.select({ n: count() }).from(user).where(live);
    await tx
      .update(user)
      .set({ realName: `改${pick(1000)}`, updateTime: new Date() })
      .where(sql`${eq(user.id, id)} and ${live}`);
  });

interface Figures {
  requests: number;
  perSecond: number;
  meanMs: number;
  p99Ms: number;
}

async function run(db: Db, request: Request, ms: number): Promise<Figures> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await request(db, pick(TENANTS));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((s, x) => s + x, 0) / Math.max(latencies.length, 1);
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    meanMs: mean,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}

/** Under RLS with tenant 0 set, another tenant's row is neither seen nor changed. */
async function checkIsolation(rls: Db): Promise<string> {
  const foreign = userIdOf(1, 1);
  return rls.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.tenant_id', ${tenantOf(0)}, true)`);
    const seen = await tx.select({ id: user.id }).from(user).where(eq(user.id, foreign));
    const changed = await tx.update(user).set({ realName: 'x' }).where(eq(user.id, foreign)).returning({ id: user.id });
    const [all] = await tx.select({ n: count() }).from(user);
    return `rls isolation: foreign row seen ${seen.length}, changed ${changed.length}; rows visible ${all?.n ?? 0} (one tenant: ${PER_TENANT})`;
  });
}

/** BENCH_EXPLAIN=1: the plans of the mix's reads, both ways, for one tenant and user. */
async function explain(helper: Db, rls: Db): Promise<void> {
  const id = userIdOf(0, 1);
  const scope = tenantScope(helper, tenantOf(0));
  const live = sql`${user.isDeleted} = 0`;
  const plans: [string, Db, boolean, { toSQL(): { sql: string; params: unknown[] } }][] = [
    ['helper by id', helper, false, scope.select(user).where(eq(user.id, id)).limit(1)],
    ['helper page', helper, false, scope.select(user, { id: user.id }).where().orderBy(user.id).limit(10)],
    ['helper total', helper, false, scope.select(user, { n: count() }).where()],
    [
      'rls by id',
      rls,
      true,
      rls
        .select()
        .from(user)
        .where(sql`${eq(user.id, id)} and ${live}`)
        .limit(1),
    ],
    ['rls page', rls, true, rls.select({ id: user.id }).from(user).where(live).orderBy(user.id).limit(10)],
    ['rls total', rls, true, rls.select({ n: count() }).from(user).where(live)],
  ];
  for (const [name, db, setTenant, query] of plans) {
    const { sql: text, params } = query.toSQL();
    const lines = await db.transaction(async (tx) => {
      if (setTenant) await tx.execute(sql`select set_config('app.tenant_id', ${tenantOf(0)}, true)`);
      const client = (tx as unknown as { session: { client: pg.PoolClient } }).session.client;
      const result = await client.query<{ 'QUERY PLAN': string }>(`explain analyze ${text}`, params);
      return result.rows.map((r) => r['QUERY PLAN']);
    });
    console.log(`-- ${name}\n${lines.join('\n')}`);
  }
}

const fmt = (f: Figures) =>
  `${f.perSecond.toFixed(0).padStart(6)} tx/s  mean ${f.meanMs.toFixed(2).padStart(6)} ms  p99 ${f.p99Ms.toFixed(2).padStart(6)} ms  (${f.requests} tx)`;

const { url, done } = await openDatabase();
try {
  await prepare(url);
  // Commits do not wait for the disk (BENCH_SYNC_COMMIT=on to have them wait): on a shared
  // machine the fsync wait dwarfs and blurs what is measured here, the tenancy mechanism.
  const options = process.env.BENCH_SYNC_COMMIT === 'on' ? undefined : '-c synchronous_commit=off';
  const helperPool = new pg.Pool({ connectionString: url, max: CONCURRENCY, options });
  const rlsPool = new pg.Pool({ connectionString: url, max: CONCURRENCY, options });
  // The database is dropped at the end (with force): a connection still closing must not crash.
  for (const pool of [helperPool, rlsPool]) pool.on('error', () => undefined);
  // Every connection of the RLS pool acts as the role the policy applies to.
  rlsPool.on('connect', (client) => void client.query(`set role ${RLS_ROLE}`));
  const helperDb = drizzle(helperPool, { schema });
  const rlsDb = drizzle(rlsPool, { schema });

  console.log(
    `tenancy bench: ${TENANTS} tenants x ${PER_TENANT} users, ${CONCURRENCY} concurrent, ${rounds} rounds of ${seconds} s each, synchronous_commit ${options ? 'off' : 'on'}`,
  );
  console.log(await checkIsolation(rlsDb));
  if (process.env.BENCH_EXPLAIN === '1') await explain(helperDb, rlsDb);
  // Warm both pools and plans before measuring.
  await run(helperDb, helperRequest, 1000);
  await run(rlsDb, rlsRequest, 1000);

  const results: { helper: Figures[]; rls: Figures[] } = { helper: [], rls: [] };
  for (let r = 0; r < rounds; r++) {
    const h = await run(helperDb, helperRequest, seconds * 1000);
    const l = await run(rlsDb, rlsRequest, seconds * 1000);
    results.helper.push(h);
    results.rls.push(l);
    console.log(`round ${r + 1}  helper ${fmt(h)}`);
    console.log(`round ${r + 1}  rls    ${fmt(l)}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const h = median(results.helper.map((f) => f.perSecond));
  const l = median(results.rls.map((f) => f.perSecond));
  const hp = median(results.helper.map((f) => f.p99Ms));
  const lp = median(results.rls.map((f) => f.p99Ms));
  console.log(
    `median  helper ${h.toFixed(0)} tx/s p99 ${hp.toFixed(2)} ms | rls ${l.toFixed(0)} tx/s p99 ${lp.toFixed(2)} ms`,
  );
  console.log(`ratio   rls / helper throughput ${(l / h).toFixed(3)}, p99 ${(lp / hp).toFixed(3)}`);
  await helperPool.end();
  await rlsPool.end();
} finally {
  await done();
}
