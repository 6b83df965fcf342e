import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_STREAM_PATH, NoticeAudience, type LiveEvent, type WarningLiveEvent } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { dataScope, role, roleScope, user } from '../src/platform/db/schema';
import { notifyLive } from '../src/platform/live/notify-live';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS, SEED_API_SCOPES, SEED_MENUS } from '../src/seed/seed-data';
import { signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { startSecondProcess, type SecondProcess } from './support/second-process';
import { createTestApp, md5, type TestApp } from './support/test-app';

/**
 * Live push across two server processes on one database (docs/live.md): each browser's stream
 * is held by one process, every process hears each committed NOTIFY once, and each stream gets
 * what its caller may see, exactly once. Streams are read over real HTTP with fetch.
 */

let a: TestApp;
let b: SecondProcess;
let baseA: string;
let baseB: string;
let admin: string;

const TENANT_B = '300101';

beforeAll(async () => {
  a = await createTestApp();
  b = await startSecondProcess(a);
  baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
  baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await a.signIn()).access_token;
});
afterAll(async () => {
  await b.close();
  await a.close();
});

/** A stream as a browser reads it: the events so far, and whether the server ended it. */
interface Reader {
  status: number;
  contentType: string | null;
  events: LiveEvent[];
  comments: string[];
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

async function openStream(base: string, token?: string): Promise<Reader> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (token) headers['blade-auth'] = `bearer ${token}`;
  const res = await fetch(`${base}/api${LIVE_STREAM_PATH}`, { headers, signal: controller.signal });
  const events: LiveEvent[] = [];
  const comments: string[] = [];
  let done = false;
  const read = async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          for (const line of block.split('\n')) if (line.startsWith(':')) comments.push(line.slice(1).trim());
          if (data) events.push(JSON.parse(data) as LiveEvent);
        }
      }
    } catch {
      // aborted by the test, or cut by the server: both end the stream
    }
    done = true;
  };
  const ended = res.ok ? read() : res.text().then(() => undefined);
  // The stream is registered once its first bytes (retry and a comment) have arrived.
  if (res.ok) await waitUntil(() => comments.includes('connected'));
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    comments,
    ended,
    isEnded: () => done,
    close: () => controller.abort(),
  };
}

async function waitUntil(test: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const now = () => new Date().toISOString();

function warningEvent(tenantId: string, deptId: string | null, id = nextId()): WarningLiveEvent {
  return {
    type: 'warning',
    action: 'raised',
    tenantId,
    deptId,
    warningId: id,
    warningNo: `W${id.slice(-8)}`,
    deviceCode: 'LIVE-1',
    level: 1,
    status: 1,
    message: '温度过高',
    at: now(),
  };
}

/** A marker after which every earlier event has been delivered (NOTIFYs arrive in commit order). */
const marker = (tenantId: string): LiveEvent => ({
  type: 'device',
  action: 'online',
  tenantId,
  deptId: null,
  deviceCode: `MARK-${nextId()}`,
  at: now(),
});

/** Stores the warning and publishes its event in one transaction, as the alarm engine does. */
async function publishWarning(event: WarningLiveEvent, outcome: 'commit' | 'rollback' = 'commit'): Promise<void> {
  const client = await a.database.pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into mes_warning (id, tenant_id, warning_no, device_code, dept_id, level, status, message, start_time)
       values ($1, $2, $3, $4, $5, $6, $7, $8, now())`,
      [
        event.warningId,
        event.tenantId,
        event.warningNo,
        event.deviceCode,
        event.deptId,
        event.level,
        event.status,
        event.message,
      ],
    );
    await notifyLive(client, [event]);
    await client.query(outcome);
  } finally {
    client.release();
  }
}

async function publish(events: LiveEvent[]): Promise<void> {
  await notifyLive(a.database.pool, events);
}

/** Publishes a marker and waits until every stream has it: everything sent before has arrived. */
async function settle(tenantId: string, ...readers: Reader[]): Promise<void> {
  const m = marker(tenantId);
  await publish([m]);
  const code = (m as { deviceCode: string }).deviceCode;
  await waitUntil(() => readers.every((r) => r.events.some((e) => 'deviceCode' in e && e.deviceCode === code)));
}

const warningIds = (r: Reader) => r.events.flatMap((e) => (e.type === 'warning' ? [e.warningId] : []));

const addTenant = (tenantId: string) => signInToNewTenant(a, tenantId, ['warning:read', 'device_info:read']);

/** A role limited to its own department's warnings (data scope type 3). */
async function deptScopedRole(): Promise<string> {
  const roleId = nextId();
  await a.ctx.db.insert(role).values({ id: roleId, tenantId: '000000', roleName: '东区', roleAlias: 'east_only' });
  const scopeId = nextId();
  const menuId = SEED_MENUS.find((m) => m.code === 'warning')?.id;
  if (!menuId) throw new Error('no warning menu in the seed');
  await a.ctx.db.insert(dataScope).values({
    id: scopeId,
    menuId,
    resourceCode: 'warning',
    scopeName: '本部门告警',
    scopeType: 3,
    scopeValue: '',
  });
  await a.ctx.db
    .insert(roleScope)
    .values({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId, roleId })
    .onConflictDoNothing();
  return roleId;
}

describe('the live stream', () => {
  it('refuses a caller without a token (401), and answers an event stream to a signed-in one', async () => {
    const anonymous = await openStream(baseB);
    expect(anonymous.status).toBe(401);
    const stream = await openStream(baseB, admin);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain('text/event-stream');
    stream.close();
    // Any other caller (a plain request, a crawler of the API) gets an answer instead of a stream.
    const plain = await a.as(admin, { method: 'GET', url: `/api${LIVE_STREAM_PATH}` });
    expect(plain.statusCode).toBe(406);
    expect(plain.json().msg).toContain('text/event-stream');
  });

  it('delivers a committed warning exactly once to streams on both processes, never a rolled-back one', async () => {
    const onB = await openStream(baseB, admin);
    const onA = await openStream(baseA, admin);
    const kept = warningEvent('000000', DEPT_IDS.east);
    const dropped = warningEvent('000000', DEPT_IDS.east);
    await publishWarning(dropped, 'rollback');
    await publishWarning(kept);
    await settle('000000', onA, onB);
    expect(warningIds(onB)).toEqual([kept.warningId]);
    expect(warningIds(onA)).toEqual([kept.warningId]);
    const received = onB.events.find((e) => e.type === 'warning');
    expect(received).toEqual(kept);
    onA.close();
    onB.close();
  });

  it("never gives tenant B tenant A's events", async () => {
    const boss = await addTenant(TENANT_B);
    const stream = await openStream(baseB, boss);
    const ofA = warningEvent('000000', DEPT_IDS.east);
    await publishWarning(ofA);
    await publish([{ ...marker('000000') }]);
    const own = warningEvent(TENANT_B, null);
    await publishWarning(own);
    await settle(TENANT_B, stream);
    expect(warningIds(stream)).toEqual([own.warningId]);
    expect(stream.events.every((e) => e.tenantId === TENANT_B)).toBe(true);
    stream.close();
  });

  it("keeps another department's warnings from a department-scoped user", async () => {
    const roleId = await deptScopedRole();
    const token = await signInWithScopes(a, { account: 'eastlive', codes: ['warning:read'], roleId });
    const stream = await openStream(baseB, token);
    const south = warningEvent('000000', DEPT_IDS.south);
    const east = warningEvent('000000', DEPT_IDS.east);
    await publishWarning(south);
    await publishWarning(east);
    // The marker is a device event: this user may not read devices, so wait on an admin stream too.
    const witness = await openStream(baseB, admin);
    const last = warningEvent('000000', DEPT_IDS.east);
    await publishWarning(last);
    await waitUntil(() => warningIds(stream).includes(last.warningId) && warningIds(witness).includes(last.warningId));
    expect(warningIds(stream)).toEqual([east.warningId, last.warningId]);
    stream.close();
    witness.close();
  });

  it('gives no warnings to a user without warning:read, and notices by audience', async () => {
    const token = await signInWithScopes(a, { account: 'devonly', codes: ['device_info:read'] });
    const stream = await openStream(baseA, token);
    await publishWarning(warningEvent('000000', DEPT_IDS.east));
    const notice = (audienceType: number, audienceIds: string[]): LiveEvent => ({
      type: 'notice',
      action: 'released',
      tenantId: '000000',
      noticeId: nextId(),
      title: `通知 ${audienceType}`,
      audienceType,
      audienceIds,
      at: now(),
    });
    const everyone = notice(NoticeAudience.everyone, []);
    const myDept = notice(NoticeAudience.depts, [DEPT_IDS.east]);
    // A notice to the company reaches its branches, as the inbox lists it.
    const above = notice(NoticeAudience.depts, [DEPT_IDS.company]);
    const otherDept = notice(NoticeAudience.depts, [DEPT_IDS.south]);
    const otherRole = notice(NoticeAudience.roles, ['1']);
    await publish([everyone, myDept, above, otherDept, otherRole]);
    await settle('000000', stream);
    expect(warningIds(stream)).toEqual([]);
    const notices = stream.events.flatMap((e) => (e.type === 'notice' ? [e.noticeId] : []));
    const idOf = (e: LiveEvent) => (e as { noticeId: string }).noticeId;
    expect(notices).toEqual([idOf(everyone), idOf(myDept), idOf(above)]);
    stream.close();
  });

  it('ends the stream at logout, and at a password change made by another session', async () => {
    const token = await signInWithScopes(a, { account: 'leaver', codes: ['warning:read'] });
    const stream = await openStream(baseB, token);
    const out = await a.as(token, { method: 'GET', url: '/api/blade-auth/oauth/logout' });
    expect(out.statusCode).toBe(200);
    await waitUntil(() => stream.isEnded());

    const first = (await a.signIn('leaver', 'leaver-pass')).access_token;
    const second = (await a.signIn('leaver', 'leaver-pass')).access_token;
    const watched = await openStream(baseB, first);
    const query = new URLSearchParams({
      oldPassword: md5('leaver-pass'),
      newPassword: md5('Leaver#Pass2'),
      newPassword1: md5('Leaver#Pass2'),
    });
    const changed = await a.as(second, { method: 'POST', url: `/api/blade-user/update-password?${query.toString()}` });
    expect(changed.statusCode, changed.body).toBe(200);
    await waitUntil(() => watched.isEnded());
  });

  it('decides again when grants change: a withdrawn warning:read stops warnings, the stream goes on', async () => {
    const roleId = nextId();
    await a.ctx.db.insert(role).values({ id: roleId, tenantId: '000000', roleName: '值班', roleAlias: 'duty' });
    const token = await signInWithScopes(a, { account: 'duty', codes: ['warning:read', 'device_info:read'], roleId });
    const stream = await openStream(baseB, token);
    const before = warningEvent('000000', DEPT_IDS.east);
    await publishWarning(before);
    await settle('000000', stream);
    const readScope = SEED_API_SCOPES.find((s) => s.resourceCode === 'warning:read')?.id as string;
    await a.ctx.db.delete(roleScope).where(and(eq(roleScope.roleId, roleId), eq(roleScope.scopeId, readScope)));
    await a.ctx.grants.changed();
    await new Promise((r) => setTimeout(r, 200));
    const after = warningEvent('000000', DEPT_IDS.east);
    await publishWarning(after);
    await settle('000000', stream);
    expect(warningIds(stream)).toEqual([before.warningId]);
    expect(stream.isEnded()).toBe(false);
    stream.close();
  });

  it('ends the stream when the caller loses a role', async () => {
    const token = await signInWithScopes(a, { account: 'demoted', codes: ['warning:read'] });
    const stream = await openStream(baseB, token);
    // Written as the user administration does, with the notice every process hears.
    await a.ctx.db.update(user).set({ roleId: '1000000000000000202' }).where(eq(user.account, 'demoted'));
    await a.ctx.sessions.usersChanged('000000');
    await waitUntil(() => stream.isEnded());
  });

  it('disconnects a client that does not read (bounded buffer)', async () => {
    const token = (await a.signIn()).access_token;
    // A raw socket that sends the request and never reads the answer.
    const { Socket } = await import('node:net');
    const url = new URL(baseB);
    const socket = new Socket();
    socket.pause();
    await new Promise<void>((resolve) => socket.connect(Number(url.port), url.hostname, resolve));
    socket.write(
      `GET /api${LIVE_STREAM_PATH} HTTP/1.1\r\nHost: ${url.host}\r\nBlade-Auth: bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const big = 'x'.repeat(480);
    // About 8 MB of events: more than the kernel's socket buffers and the server's limit together.
    for (let round = 0; round < 1000; round++) {
      await publish(Array.from({ length: 12 }, () => ({ ...warningEvent('000000', null), message: big })));
    }
    // Now read: a stream the server cut off ends after what was already buffered.
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('still open')), 10_000))]);
    expect(received).toBeLessThan(8_000_000);
    socket.destroy();
  });

  it('ends the streams when the listening connection is lost, and delivers again once it is back', async () => {
    const stream = await openStream(baseA, admin);
    await a.database.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = 'LISTEN mes_live'`,
    );
    await waitUntil(() => stream.isEnded());
    await waitUntil(() => a.ctx.live.isLive() && b.ctx.live.isLive(), 10_000);
    const again = await openStream(baseA, admin);
    const event = warningEvent('000000', DEPT_IDS.east);
    await publishWarning(event);
    await waitUntil(() => warningIds(again).includes(event.warningId));
    again.close();
  });

  it('ends open streams when the server shuts down, without holding the shutdown', async () => {
    const stream = await openStream(baseB, admin);
    const started = Date.now();
    await b.app.close();
    await waitUntil(() => stream.isEnded());
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
