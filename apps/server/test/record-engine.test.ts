import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRecordResource } from '@mes/contracts';
import { tableFor } from '../src/engine/definition-tables';
import { registerResource } from '../src/engine/resource-routes';
import { removeExpiredRecords } from '../src/engine/records/record-retention-job';
import { ROLE_IDS } from '../src/seed/seed-data';
import { createTablesFor } from './support/fixture-tables';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The record engine by declaration alone (docs/records.md): a definition that exists only in
 * this file, with no module and no hooks, gets the chain, its verification, review by a second
 * person, corrections as versions and retention — what the verification records will get.
 */
const logbookResource = defineRecordResource({
  code: 'logbook',
  title: { zh: '巡检记录', en: 'Logbook' },
  table: 'mes_test_logbook',
  api: '/mes-test/logbook',
  listRoute: 'page',
  menu: { group: 'business', sort: 90, icon: 'book' },
  records: {
    chainBy: 'station',
    retention: {
      typeField: 'kind',
      timeField: 'doneAt',
      types: {
        1: {
          label: { zh: '巡检记录', en: 'Rounds' },
          param: 'records.retention.test.days',
          paramName: '巡检记录保存天数',
          minimumDays: 30,
          rule: { zh: '测试规则: 保存不少于30天', en: 'Test rule: 30 days' },
        },
      },
    },
  },
  fields: {
    station: { kind: 'string', label: { zh: '站点', en: 'Station' }, max: 32, required: true, form: 'create' },
    kind: { kind: 'int', label: { zh: '类型', en: 'Kind' }, default: 1, range: [1, 1] },
    note: { kind: 'string', label: { zh: '内容', en: 'Note' }, max: 200, required: true },
    doneAt: { kind: 'datetime', label: { zh: '完成时间', en: 'Done at' }, required: true },
  },
});

const API = '/api/mes-test/logbook';
const DAY = 86_400_000;
let t: TestApp;
let admin: string;
let second: string;

const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

async function call(token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  const res = await t.as(token, { method, url, ...(payload ? { payload } : {}) });
  return res.json<{ code: number; success: boolean; data: never; msg: string }>();
}

beforeAll(async () => {
  t = await createTestApp({
    beforeReady(app, ctx) {
      registerResource(app, ctx, { def: logbookResource, table: tableFor(logbookResource) });
    },
  });
  await createTablesFor(t.databaseUrl, { logbook: tableFor(logbookResource) });
  admin = (await t.signIn()).access_token;
  second = await signInWithScopes(t, { account: 'second', codes: [], roleId: ROLE_IDS.administrator });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('a record definition with no module', () => {
  it('chains, verifies, reviews, corrects and keeps its rows as declared', async () => {
    const add = (station: string, note: string, ago = DAY) =>
      call(admin, 'POST', `${API}/submit`, { station, note, doneAt: stamp(Date.now() - ago) });
    const a1 = (await add('A', 'one')).data as string;
    const a2 = (await add('A', 'two')).data as string;
    await add('B', 'other');

    const intact = await call(admin, 'GET', `${API}/verify`);
    expect(intact.data).toMatchObject({ checked: 3, chains: 2, broken: null });

    expect((await call(admin, 'POST', `${API}/review`, { ids: a1 })).msg).toBe('审核人不能是记录的操作人');
    expect((await call(second, 'POST', `${API}/review`, { ids: a1 })).success).toBe(true);
    expect((await call(admin, 'POST', `${API}/submit`, { id: a1, note: 'edited' })).msg).toContain('记录不能修改');

    const fixed = await call(admin, 'POST', `${API}/correct`, {
      id: a1,
      note: 'one, corrected',
      doneAt: stamp(Date.now() - DAY),
    });
    expect(fixed.success).toBe(true);
    const versions = await call(admin, 'GET', `${API}/versions?id=${a1}`);
    expect((versions.data as Record<string, unknown>[]).map((v) => [v.note, v.station, v.superseded])).toEqual([
      ['one', 'A', true],
      ['one, corrected', 'A', false],
    ]);

    const removal = await call(admin, 'POST', `${API}/remove?ids=${a2}`);
    expect(removal).toMatchObject({ code: 400, msg: expect.stringContaining('测试规则: 保存不少于30天') });

    await t.database.pool.query(`update mes_test_logbook set note = 'two (edited)' where id = $1`, [a2]);
    const broken = await call(admin, 'GET', `${API}/verify?station=A`);
    expect(broken.data).toMatchObject({ broken: { id: a2, partition: 'A', chainSeq: 2 } });
  });

  it('leaves removal past the retention to the job', async () => {
    const old = (
      await call(admin, 'POST', `${API}/submit`, { station: 'C', note: 'old', doneAt: stamp(Date.now() - 40 * DAY) })
    ).data as string;
    const removed = await removeExpiredRecords(t.ctx, [{ def: logbookResource, table: tableFor(logbookResource) }]);
    expect(removed.flatMap((r) => r.ids)).toEqual([old]);
  });
});
