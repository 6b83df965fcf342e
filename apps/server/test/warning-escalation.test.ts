import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOTICE_INBOX_PATH,
  NoticeAudience,
  SmsCategory,
  WARNING_HANDLE_PATH,
  WARNING_HISTORY_PATH,
  warningEscalationResource,
  type LiveEvent,
  type NoticeInboxReply,
  type WarningHistoryEntry,
} from '@mes/contracts';
import { escalateWarnings, ESCALATIONS_PER_SWEEP } from '../src/modules/warning/escalation';
import { DEVELOPMENT_LOG_TAG } from '../src/modules/providers/sms/development';
import { nextId } from '../src/platform/db/ids';
import { role, user } from '../src/platform/db/schema';
import { DEPT_IDS } from '../src/seed/seed-data';
import { LIVE_CHANNEL } from '../src/platform/live/notify-live';
import { grantOwnDeptScope, signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Escalation of warnings nobody answers (issue 28 point 6, docs/warnings.md "Escalation"): steps
 * saved through the generic routes (with their 400s), the sweep on the real database — the
 * notice to the role's users, the SMS through the tenant's development provider (logged, never
 * sent), the live events, the history entry — once per warning and step however often or
 * concurrently it runs, and never for a handled warning.
 */
const TENANT = '000000';
const STEPS = `/api${warningEscalationResource.api}`;
const PHONE = '13800000286';

let t: TestApp;
let admin: string;
let dutyRoleId: string;
let dutyToken: string;
let listener: pg.Client;
const events: LiveEvent[] = [];
const logLines: Record<string, unknown>[] = [];

const rowsOf = async <T>(query: ReturnType<typeof sql>) => (await t.ctx.db.execute(query)).rows as T[];
const post = (url: string, payload: Record<string, unknown>, token = admin, lang = 'zh-CN') =>
  t.as(token, { method: 'POST', url, payload, headers: { 'accept-language': lang } });
const now = () => new Date(t.clock.now());
const sweep = () => escalateWarnings(t.ctx, now());

let seq = 0;
/** A warning of `level` in `status`, started `minutesAgo` (of the test's clock). */
async function insertWarning(
  level: number,
  minutesAgo: number,
  status = 1,
  tenantId = TENANT,
  deptId: string | null = null,
): Promise<string> {
  const id = nextId();
  seq += 1;
  const start = new Date(t.clock.now() - minutesAgo * 60_000);
  await t.ctx.db.execute(sql`
    insert into mes_warning (id, tenant_id, warning_no, device_code, dept_id, warning_type, level, message, start_time, status)
    values (${id}, ${tenantId}, ${`WE${String(seq).padStart(8, '0')}`}, 'ESC-DEV', ${deptId}, 'threshold', ${level},
      ${`设备 ESC-DEV 温度过高 #${seq}`}, ${start}, ${status})`);
  return id;
}

const historyOf = (warningId: string) =>
  rowsOf<{ policy_id: string; user_names: string; sms_status: string; sms_detail: string; notice_id: string }>(
    sql`select * from mes_warning_history where warning_id = ${warningId} order by at, id`,
  );

async function saveStep(body: Record<string, unknown>): Promise<string> {
  const res = await post(`${STEPS}/submit`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as string;
}

/** Waits until `check` holds (jobs run on the queue's workers). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  t = await createTestApp({
    jobs: { pollingIntervalSeconds: 0.5 },
    appOptions: { logger: pino({ level: 'info' }, sink) },
  });
  admin = (await t.signIn()).access_token;
  // The tenant's enabled SMS configuration: the development provider only writes to the log.
  const config = await post('/api/blade-resource/sms/submit', {
    category: SmsCategory.development,
    smsCode: 'dev-esc',
    templateId: 'SIGN_IN',
  });
  expect(config.statusCode, config.body).toBe(200);
  expect((await post(`/api/blade-resource/sms/enable?id=${config.json().data as string}`, {})).statusCode).toBe(200);
  // The role a step notifies, with one user who has a phone and one who is disabled.
  dutyRoleId = nextId();
  await t.ctx.db
    .insert(role)
    .values({ id: dutyRoleId, tenantId: TENANT, roleName: '值班主管', roleAlias: 'duty_lead' });
  dutyToken = await signInWithScopes(t, { account: 'duty286', roleId: dutyRoleId, codes: [] });
  await t.ctx.db.execute(
    sql`update blade_user set phone = ${PHONE} where account = 'duty286' and tenant_id = ${TENANT}`,
  );
  await t.ctx.db.insert(user).values({
    id: nextId(),
    tenantId: TENANT,
    account: 'duty286off',
    password: 'x',
    name: '停用',
    realName: '停用的值班',
    roleId: dutyRoleId,
    phone: '13800000287',
    status: 0,
  });
  listener = new pg.Client({ connectionString: t.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => {
    if (n.channel === LIVE_CHANNEL && n.payload) events.push(...(JSON.parse(n.payload) as LiveEvent[]));
  });
  await listener.query(`listen ${LIVE_CHANNEL}`);
});

afterAll(async () => {
  await listener?.end();
  await t?.close();
});

describe('escalation steps', () => {
  it('refuses bad steps with a 400 in the caller’s language', async () => {
    const cases: [Record<string, unknown>, RegExp, RegExp][] = [
      [{ level: 1, roleId: dutyRoleId, afterMinutes: 0 }, /未处理超过/, /Unhandled after/],
      [{ level: 1, roleId: dutyRoleId, afterMinutes: 20_000 }, /未处理超过/, /Unhandled after/],
      [{ level: 9, roleId: dutyRoleId, afterMinutes: 10 }, /告警级别/, /Warning level/],
      [{ level: 1, afterMinutes: 10 }, /通知角色/, /notify role/i],
      [{ level: 1, roleId: '123456789', afterMinutes: 10 }, /通知角色/, /notify role/i],
      [{ level: 1, roleId: dutyRoleId, afterMinutes: 10, smsTemplateId: 'WARN' }, /短信模板ID/, /SMS template id/],
    ];
    for (const [body, zh, en] of cases) {
      const inZh = await post(`${STEPS}/submit`, body);
      expect(inZh.statusCode, inZh.body).toBe(400);
      expect(inZh.json().msg).toMatch(zh);
      const inEn = await post(`${STEPS}/submit`, body, admin, 'en');
      expect(inEn.statusCode, inEn.body).toBe(400);
      expect(inEn.json().msg).toMatch(en);
    }
    // A tenant without an enabled SMS configuration cannot save a step that texts.
    const other = await signInToNewTenant(t, '300286', ['warning_escalation:read', 'warning_escalation:write']);
    const [otherRole] = await rowsOf<{ id: string }>(sql`select id from blade_role where tenant_id = '300286'`);
    const refused = await post(
      `${STEPS}/submit`,
      { level: 1, roleId: otherRole?.id, afterMinutes: 10, notifySms: true },
      other,
      'en',
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().msg).toMatch(/enabled SMS configuration/);
    const refusedZh = await post(
      `${STEPS}/submit`,
      { level: 1, roleId: otherRole?.id, afterMinutes: 10, notifySms: true },
      other,
    );
    expect(refusedZh.json().msg).toMatch(/短信配置/);
    // The same step of the same level twice is refused by its unique index.
    await saveStep({ level: 4, roleId: dutyRoleId, afterMinutes: 15 });
    const twice = await post(`${STEPS}/submit`, { level: 4, roleId: dutyRoleId, afterMinutes: 15 });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toMatch(/升级步骤/);
  });
});

describe('the sweep', () => {
  let first: string;
  let second: string;
  let due: string;
  let handledEarly: string;
  let otherLevel: string;
  let backlog: string;
  let alreadyHandled: string;

  beforeAll(async () => {
    // A backlog from before the steps existed, then the steps: critical after 10 and 30 minutes.
    backlog = await insertWarning(1, 3 * 24 * 60);
    first = await saveStep({
      level: 1,
      roleId: dutyRoleId,
      afterMinutes: 10,
      notifySms: true,
      smsTemplateId: 'WARN_ESC',
      notifyLive: true,
    });
    second = await saveStep({ level: 1, roleId: dutyRoleId, afterMinutes: 30, notifySms: false, notifyLive: true });
    due = await insertWarning(1, 5);
    handledEarly = await insertWarning(1, 5);
    otherLevel = await insertWarning(2, 5);
    alreadyHandled = await insertWarning(1, 5, 2);
  });

  it('does nothing before a warning’s time', async () => {
    expect(await sweep()).toEqual({ escalated: 0 });
    expect(await historyOf(due)).toEqual([]);
  });

  it('escalates an unhandled warning past its time once: notice, SMS, live events, history', async () => {
    const handled = await post(`/api${WARNING_HANDLE_PATH}`, { ids: handledEarly, result: '已到现场' });
    expect(handled.statusCode, handled.body).toBe(200);
    t.clock.advance(10 * 60_000);
    expect(await sweep()).toEqual({ escalated: 1 });

    const [entry] = await historyOf(due);
    // The SMS job runs after the sweep's commit: it may have finished already (`sent`) or not (`queued`).
    expect(entry).toMatchObject({ policy_id: first, user_names: 'duty286', sms_detail: PHONE });
    expect(['queued', 'sent']).toContain(entry?.sms_status);
    // Not the handled one, not another level, not the backlog, not one handled before.
    for (const id of [handledEarly, otherLevel, backlog, alreadyHandled]) expect(await historyOf(id)).toEqual([]);

    // The notice reaches the role's user's bell.
    const inbox = (await t.as(dutyToken, { method: 'GET', url: `/api${NOTICE_INBOX_PATH}` })).json()
      .data as NoticeInboxReply;
    const notice = inbox.records.find((r) => r.id === entry?.notice_id);
    expect(notice?.title).toMatch(/告警升级: ESC-DEV 紧急告警 WE\d+ 超过 10 分钟未处理/);
    expect(notice?.read).toBe(false);

    // The SMS: sent through the development provider (logged, not delivered), with the step's template.
    const sent = await until(
      () => historyOf(due),
      (rows) => rows[0]?.sms_status !== 'queued',
    );
    expect(sent[0]).toMatchObject({ sms_status: 'sent', sms_detail: PHONE });
    const line = logLines.find((l) => l.tag === DEVELOPMENT_LOG_TAG);
    expect(line).toMatchObject({ phones: [PHONE], templateId: 'WARN_ESC', params: { minutes: '10', level: '紧急' } });
    expect((line?.params as Record<string, string>).warningNo).toMatch(/^WE\d+$/);

    // Live: the notice's release to the role and the warning's escalation.
    await until(
      async () => events,
      (e) => e.some((x) => x.type === 'warning' && x.action === 'escalated'),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'warning', action: 'escalated', warningId: due, level: 1 }),
    );
    // The notice goes to the users notified (audience 指定用户), not to the whole role.
    const [duty] = await rowsOf<{ id: string }>(sql`select id from blade_user where account = 'duty286'`);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'notice',
        action: 'released',
        noticeId: entry?.notice_id,
        audienceType: NoticeAudience.users,
        audienceIds: [duty?.id],
      }),
    );
  });

  it('does not escalate twice: a second run, and runs in parallel (as on several processes)', async () => {
    const notices = async () =>
      Number((await rowsOf<{ n: string }>(sql`select count(*) n from blade_notice where tenant_id = ${TENANT}`))[0]?.n);
    const before = await notices();
    expect(await sweep()).toEqual({ escalated: 0 });
    const racing = await insertWarning(1, 11);
    const runs = await Promise.all([sweep(), sweep(), sweep()]);
    expect(runs.reduce((n, r) => n + r.escalated, 0)).toBe(1);
    expect(await historyOf(racing)).toHaveLength(1);
    expect(await historyOf(due)).toHaveLength(1);
    expect(await notices()).toBe(before + 1);
  });

  it('goes to the next step, and stops once the warning is handled', async () => {
    const third = await saveStep({ level: 1, roleId: dutyRoleId, afterMinutes: 60 });
    t.clock.advance(20 * 60_000);
    await sweep();
    const steps = await historyOf(due);
    expect(steps.map((h) => h.policy_id)).toEqual([first, second]);
    // The second step sends no SMS.
    expect(steps[1]).toMatchObject({ sms_status: 'off', sms_detail: '' });
    expect((await post(`/api${WARNING_HANDLE_PATH}`, { ids: due, result: '已复位' })).statusCode).toBe(200);
    t.clock.advance(60 * 60_000);
    await sweep();
    expect((await historyOf(due)).map((h) => h.policy_id)).not.toContain(third);
  });

  it('answers the warning’s history: raised, escalations with who was notified, handled', async () => {
    // The clock moved past the first token's life.
    admin = (await t.signIn()).access_token;
    const res = await t.as(admin, { method: 'GET', url: `/api${WARNING_HISTORY_PATH}?id=${due}` });
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().data as WarningHistoryEntry[];
    expect(entries.map((e) => e.action)).toEqual(['raised', 'escalated', 'escalated', 'handled']);
    expect(entries[1]).toMatchObject({
      who: '值班主管',
      afterMinutes: 10,
      users: ['duty286'],
      live: true,
      sms: 'sent',
      smsDetail: PHONE,
    });
    expect(entries[2]).toMatchObject({ afterMinutes: 30, sms: 'off' });
    expect(entries[3]).toMatchObject({ result: '已复位' });
    // Another tenant's caller does not see it.
    const other = await signInToNewTenant(t, '300287', ['warning:read']);
    expect((await t.as(other, { method: 'GET', url: `/api${WARNING_HISTORY_PATH}?id=${due}` })).statusCode).toBe(404);
  });

  it('is scheduled as a job once across processes', async () => {
    await until(
      () => rowsOf<{ name: string }>(sql`select name from pgboss.schedule where name = 'warning.escalate'`),
      (rows) => rows.length === 1,
    );
    expect(await rowsOf(sql`select name from pgboss.schedule where name = 'warning.escalate'`)).toHaveLength(1);
    expect(ESCALATIONS_PER_SWEEP).toBeGreaterThan(0);
  });
});

describe('recipients: the role’s users who may see the warning', () => {
  const EAST_PHONE = '13800000288';
  const SOUTH_PHONE = '13800000289';
  let leadRoleId: string;
  let step: string;

  beforeAll(async () => {
    // Ward leads: one role, its data scope on warnings "own department"; one lead in each department.
    leadRoleId = nextId();
    await t.ctx.db
      .insert(role)
      .values({ id: leadRoleId, tenantId: TENANT, roleName: '片区主管', roleAlias: 'ward_lead' });
    await grantOwnDeptScope(t, leadRoleId, 'warning');
    for (const [account, deptId, phone] of [
      ['eastlead', DEPT_IDS.east, EAST_PHONE],
      ['southlead', DEPT_IDS.south, SOUTH_PHONE],
    ] as const) {
      await signInWithScopes(t, { account, roleId: leadRoleId, deptId, codes: ['warning:read'] });
      await t.ctx.db.execute(sql`update blade_user set phone = ${phone} where account = ${account}`);
    }
    step = await saveStep({ level: 3, roleId: leadRoleId, afterMinutes: 10, notifySms: true, notifyLive: true });
  });

  it('notifies only the lead whose department scope covers it: notice, SMS and live popover', async () => {
    const eastWarning = await insertWarning(3, 0, 1, TENANT, DEPT_IDS.east);
    t.clock.advance(10 * 60_000);
    await sweep();
    const [entry] = await historyOf(eastWarning);
    expect(entry).toMatchObject({ policy_id: step, user_names: 'eastlead', sms_detail: EAST_PHONE });

    // Signed in after the clock moved (earlier tokens have expired).
    const east = (await t.signIn('eastlead', 'eastlead-pass')).access_token;
    const south = (await t.signIn('southlead', 'southlead-pass')).access_token;
    // The same rule as the list: the east lead lists the warning, the south lead does not.
    const listed = async (token: string) =>
      (
        (await t.as(token, { method: 'GET', url: `/api/report/warning/list?size=100` })).json().data.records as {
          id: string;
        }[]
      ).map((r) => r.id);
    expect(await listed(east)).toContain(eastWarning);
    expect(await listed(south)).not.toContain(eastWarning);

    const inbox = async (token: string) =>
      ((await t.as(token, { method: 'GET', url: `/api${NOTICE_INBOX_PATH}` })).json().data as NoticeInboxReply).records;
    expect((await inbox(east)).map((n) => n.id)).toContain(entry?.notice_id);
    expect((await inbox(south)).map((n) => n.id)).not.toContain(entry?.notice_id);

    // The SMS texts the east lead's phone alone.
    const sent = await until(
      () => historyOf(eastWarning),
      (rows) => rows[0]?.sms_status !== 'queued',
    );
    expect(sent[0]).toMatchObject({ sms_status: 'sent', sms_detail: EAST_PHONE });
    const texted = logLines.filter((l) => l.tag === DEVELOPMENT_LOG_TAG).flatMap((l) => l.phones as string[]);
    expect(texted).toContain(EAST_PHONE);
    expect(texted).not.toContain(SOUTH_PHONE);

    // The live popover's event names the east lead only.
    const [eastUser] = await rowsOf<{ id: string }>(sql`select id from blade_user where account = 'eastlead'`);
    const released = await until(
      async () => events.filter((e) => e.type === 'notice' && e.noticeId === entry?.notice_id),
      (found) => found.length > 0,
    );
    expect(released).toEqual([
      expect.objectContaining({ audienceType: NoticeAudience.users, audienceIds: [eastUser?.id] }),
    ]);
  });

  it('a warning no lead may see: escalated with nobody notified, no notice, no SMS', async () => {
    const unseen = await insertWarning(3, 0, 1, TENANT, DEPT_IDS.company);
    t.clock.advance(10 * 60_000);
    await sweep();
    const [entry] = await historyOf(unseen);
    expect(entry).toMatchObject({ policy_id: step, user_names: '', notice_id: null, sms_status: 'no-phone' });
  });
});
