import { eq, like } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatDateTime,
  NOTICE_INBOX_PATH,
  NOTICE_READ_PATH,
  NoticeAudience,
  type LiveEvent,
  type NoticeInboxReply,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { deskService, notice, role } from '../src/platform/db/schema';
import { LIVE_CHANNEL } from '../src/platform/live/notify-live';
import { DEPT_IDS } from '../src/seed/seed-data';
import { signInWithScopes, signInAsProvisionedTenant } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

const OTHER_TENANT = '300071';
let t: TestApp;
/** Tokens: the administrator, readers in the east and south departments, another tenant's administrator. */
let admin: string;
let eastReader: string;
let southReader: string;
let other: string;
let readerRoleId: string;
/** Live events heard on the channel, in order. */
const heard: LiveEvent[] = [];
let listener: pg.Client;

type Body = Record<string, unknown>;
const call = (token: string, method: 'GET' | 'POST', url: string, payload?: Body): Promise<LightMyRequestResponse> =>
  t.as(token, { method, url, payload });
const submitNotice = (token: string, body: Body) => call(token, 'POST', '/api/blade-desk/notice/submit', body);
const inbox = async (token: string, query = ''): Promise<NoticeInboxReply> => {
  const res = await call(token, 'GET', `/api${NOTICE_INBOX_PATH}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as NoticeInboxReply;
};
const view = (token: string, id: string) => call(token, 'GET', `/api/blade-desk/notice/view?id=${id}`);
const idOf = (res: LightMyRequestResponse) => {
  expect(res.json(), res.body).toMatchObject({ success: true });
  return res.json().data as string;
};
const released = (offsetMs = 0) => formatDateTime(new Date(Date.now() + offsetMs));
const waitFor = async <T>(probe: () => T | undefined, ms = 8000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};
const noticeEvents = (id: string) => heard.filter((e) => e.type === 'notice' && e.noticeId === id);

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  admin = (await t.signIn()).access_token;
  readerRoleId = nextId();
  await t.ctx.db.insert(role).values({ id: readerRoleId, tenantId: '000000', roleName: '读者', roleAlias: 'reader' });
  eastReader = await signInWithScopes(t, {
    account: 'n_east',
    codes: [],
    roleId: readerRoleId,
    deptId: DEPT_IDS.east,
  });
  southReader = await signInWithScopes(t, { account: 'n_south', codes: [], deptId: DEPT_IDS.south });
  other = await signInAsProvisionedTenant(t, admin, OTHER_TENANT, '另一家诊所集团');
  listener = new pg.Client({ connectionString: t.databaseUrl });
  await listener.connect();
  listener.on('notification', (message) => {
    if (message.channel === LIVE_CHANNEL) heard.push(...(JSON.parse(message.payload ?? '[]') as LiveEvent[]));
  });
  await listener.query(`listen ${LIVE_CHANNEL}`);
});
afterAll(async () => {
  await listener?.end();
  await t?.close();
});

describe('notice content', () => {
  it('is stored without scripts, handlers or javascript: links, and keeps harmless formatting', async () => {
    const id = idOf(
      await submitNotice(admin, {
        title: '消毒剂更换通知',
        category: 1,
        releaseTime: released(),
        audienceType: NoticeAudience.everyone,
        content:
          '<h2>更换安排</h2><p><strong>周一</strong> <em>上午</em></p><ul><li>一号机</li></ul>' +
          '<script>alert(1)</script><img src="x" onerror="alert(2)"><img src="https://cdn.example.com/a.png" onerror="alert(3)">' +
          '<a href="javascript:alert(4)">坏链接</a><a href="https://example.com/manual">说明书</a>' +
          '<p style="text-align:center;background:url(javascript:alert(5))" onclick="alert(6)">居中</p>' +
          '<iframe src="https://example.com"></iframe>',
      }),
    );
    const [row] = await t.ctx.db.select({ content: notice.content }).from(notice).where(eq(notice.id, id));
    const stored = String(row?.content);
    expect(stored).toContain('<span>坏链接</span>');
    for (const bad of ['<script', 'alert(', 'onerror', 'onclick', 'javascript:', '<iframe', 'url('])
      expect(stored).not.toContain(bad);
    expect(stored).toContain('<h2>更换安排</h2>');
    expect(stored).toContain('<strong>周一</strong> <em>上午</em>');
    expect(stored).toContain('<ul><li>一号机</li></ul>');
    expect(stored).toContain('<img src="https://cdn.example.com/a.png" />');
    expect(stored).toContain(
      '<a href="https://example.com/manual" target="_blank" rel="noopener noreferrer">说明书</a>',
    );
    expect(stored).toContain('<p style="text-align:center">居中</p>');
    // The reader gets the same cleaned text, and the release was announced in the save's transaction.
    const read = await view(eastReader, id);
    expect(read.json().data.content).toBe(stored);
    const events = await waitFor(() => (noticeEvents(id).length ? noticeEvents(id) : undefined));
    expect(events[0]).toMatchObject({ type: 'notice', action: 'released', tenantId: '000000', noticeId: id });
  });
});

describe('audience, reading and tenants', () => {
  let byRole: string;
  let byDept: string;
  let later: string;

  beforeAll(async () => {
    byRole = idOf(
      await submitNotice(admin, {
        title: '读者角色通知',
        releaseTime: released(-60_000),
        audienceType: NoticeAudience.roles,
        audienceIds: readerRoleId,
        content: '<p>给读者</p>',
      }),
    );
    byDept = idOf(
      await submitNotice(admin, {
        title: '华东机构通知',
        releaseTime: released(-30_000),
        audienceType: NoticeAudience.depts,
        audienceIds: DEPT_IDS.east,
        content: '<p>给华东</p>',
      }),
    );
    later = idOf(
      await submitNotice(admin, {
        title: '明天的通知',
        releaseTime: released(24 * 3600_000),
        audienceType: NoticeAudience.everyone,
        content: '<p>明天见</p>',
      }),
    );
  });

  it('reaches the role and the department it names, and nobody else', async () => {
    const east = (await inbox(eastReader)).records.map((r) => r.id);
    expect(east).toEqual(expect.arrayContaining([byRole, byDept]));
    const south = (await inbox(southReader)).records.map((r) => r.id);
    expect(south).not.toContain(byRole);
    expect(south).not.toContain(byDept);
    for (const id of [byRole, byDept]) {
      const refused = await view(southReader, id);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ success: false, msg: '数据不存在或无权访问' });
      expect((await call(southReader, 'POST', `/api${NOTICE_READ_PATH}?id=${id}`)).statusCode).toBe(404);
    }
  });

  it('a department notice also reaches the departments under it', async () => {
    const company = idOf(
      await submitNotice(admin, {
        title: '集团通知',
        releaseTime: released(-1000),
        audienceType: NoticeAudience.depts,
        audienceIds: DEPT_IDS.company,
      }),
    );
    expect((await inbox(southReader)).records.map((r) => r.id)).toContain(company);
  });

  it('keeps read marks per user, newest first, with the unread count', async () => {
    const before = await inbox(eastReader);
    const dates = before.records.map((r) => r.releaseTime);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(before.records.find((r) => r.id === byRole)).toMatchObject({
      read: false,
      categoryName: expect.any(String),
    });
    const unread = before.unread;
    const shown = await view(eastReader, byRole);
    expect(shown.json().data).toMatchObject({ id: byRole, title: '读者角色通知', read: true });
    expect(await call(eastReader, 'POST', `/api${NOTICE_READ_PATH}?id=${byDept}`)).toMatchObject({ statusCode: 200 });
    const after = await inbox(eastReader);
    expect(after.unread).toBe(unread - 2);
    expect(after.records.filter((r) => r.id === byRole || r.id === byDept).every((r) => r.read)).toBe(true);
    // Reading twice counts once; another reader's marks are their own.
    await view(eastReader, byRole);
    expect((await inbox(eastReader)).unread).toBe(unread - 2);
    const adminBox = await inbox(admin);
    expect(adminBox.records.find((r) => r.id === byRole)).toBeUndefined();
    expect(adminBox.records.every((r) => r.read === false)).toBe(true);
  });

  it('pages the inbox', async () => {
    const all = await inbox(eastReader, '?current=1&size=100');
    const second = await inbox(eastReader, '?current=2&size=1');
    expect(second.records).toHaveLength(1);
    expect(second.records[0]?.id).toBe(all.records[1]?.id);
    expect((await call(eastReader, 'GET', `/api${NOTICE_INBOX_PATH}?current=0`)).statusCode).toBe(400);
    expect((await call(eastReader, 'GET', `/api${NOTICE_INBOX_PATH}?size=abc`)).statusCode).toBe(400);
  });

  it('keeps a future notice out of the inbox and the reader until its time', async () => {
    expect((await inbox(eastReader)).records.map((r) => r.id)).not.toContain(later);
    expect((await view(eastReader, later)).statusCode).toBe(404);
  });

  it("never shows a tenant's notice to another tenant's user", async () => {
    const foreign = (await inbox(other)).records.map((r) => r.id);
    for (const id of [byRole, byDept]) {
      expect(foreign).not.toContain(id);
      expect((await view(other, id)).statusCode).toBe(404);
    }
    const list = await call(other, 'GET', '/api/blade-desk/notice/list');
    expect(list.json().data.records).toEqual([]);
    // Nor may its administrator address a notice to this tenant's role.
    const res = await submitNotice(other, {
      title: '越界',
      releaseTime: released(),
      audienceType: NoticeAudience.roles,
      audienceIds: readerRoleId,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('所选角色不存在或不属于本租户');
  });
});

describe('release at a future time', () => {
  it('announces the notice when its time arrives (durable job)', async () => {
    const id = idOf(
      await submitNotice(admin, {
        title: '稍后发布',
        releaseTime: released(2500),
        audienceType: NoticeAudience.everyone,
      }),
    );
    expect((await inbox(southReader)).records.map((r) => r.id)).not.toContain(id);
    expect(noticeEvents(id)).toEqual([]);
    const [event] = await waitFor(() => (noticeEvents(id).length ? noticeEvents(id) : undefined), 15_000);
    expect(event).toMatchObject({ action: 'released', title: '稍后发布' });
    expect((await inbox(southReader)).records.map((r) => r.id)).toContain(id);
  });
});

describe('bad input', () => {
  it('refuses an unknown role or department, or a too-long title, and stores nothing', async () => {
    const cases: [Body, string | RegExp][] = [
      [{ audienceType: NoticeAudience.roles, audienceIds: '1234567890123456789' }, '所选角色不存在或不属于本租户'],
      [{ audienceType: NoticeAudience.depts, audienceIds: '1234567890123456789' }, '所选机构不存在或不属于本租户'],
      [{ audienceType: NoticeAudience.roles }, /对象/],
      [{ title: `坏输入${'长'.repeat(300)}` }, /通知标题/],
      [{ audienceType: 9 }, /通知对象/],
      [{ releaseTime: 'tomorrow' }, /发布时间/],
    ];
    for (const [patch, message] of cases) {
      const res = await submitNotice(admin, {
        title: '坏输入',
        releaseTime: released(),
        audienceType: NoticeAudience.everyone,
        ...patch,
      });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().msg).toMatch(message);
    }
    expect(await t.ctx.db.select({ id: notice.id }).from(notice).where(like(notice.title, '坏输入%'))).toEqual([]);
  });
});

describe('desk services', () => {
  const service = (token: string, op: string, body?: Body) =>
    call(token, body ? 'POST' : 'GET', `/api/blade-desk/service/${op}`, body);

  it('are kept per tenant: add, list, update, remove, and no reach into another tenant', async () => {
    const id = idOf(
      await service(admin, 'submit', {
        serviceCode: 'REPAIR-1',
        serviceName: '上门维修',
        category: 1,
        contactName: '王工',
        contactPhone: '+86 21-5555 0101',
        responseHours: 4,
        description: '工作日 4 小时内响应',
      }),
    );
    const listed = (await service(admin, 'list')).json().data.records as Body[];
    expect(listed.find((r) => r.id === id)).toMatchObject({
      serviceName: '上门维修',
      enabled: true,
      categoryName: '维修',
    });
    expect(idOf(await service(admin, 'submit', { id, responseHours: 8 }))).toBe(id);
    expect((await service(admin, `detail?id=${id}`)).json().data).toMatchObject({ responseHours: 8 });
    const dup = await service(admin, 'submit', { serviceCode: 'REPAIR-1', serviceName: '重复', category: 1 });
    expect(dup.json()).toMatchObject({ success: false, msg: '服务编号已存在' });
    const badPhone = await service(admin, 'submit', { serviceCode: 'X-2', serviceName: 'x', contactPhone: 'call me' });
    expect(badPhone.statusCode).toBe(400);

    // Another tenant sees none of it and can change none of it; the same code is free there.
    expect((await service(other, 'list')).json().data.records).toEqual([]);
    expect((await service(other, `detail?id=${id}`)).statusCode).toBe(404);
    expect((await service(other, 'submit', { id, serviceName: '篡改' })).statusCode).toBe(404);
    expect((await service(other, 'remove', { ids: id })).statusCode).toBe(404);
    idOf(await service(other, 'submit', { serviceCode: 'REPAIR-1', serviceName: '他们的维修', category: 1 }));
    const [mine] = await t.ctx.db.select().from(deskService).where(eq(deskService.id, id));
    expect(mine).toMatchObject({ serviceName: '上门维修', tenantId: '000000', isDeleted: 0 });

    expect(await service(admin, 'remove', { ids: id })).toMatchObject({ statusCode: 200 });
    expect((await service(admin, `detail?id=${id}`)).statusCode).toBe(404);
  });
});
