import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionConfig } from '../src/modules/develop/datasource-connect';
import { SecretBox, secretBoxFor } from '../src/platform/crypto/secret-box';
import { datasource, tenant } from '../src/platform/db/schema';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
});
afterAll(() => t.close());

const get = (url: string) => t.as(admin, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url, payload });
const API = '/api/blade-develop/datasource';
const SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
const stored = async (id: string) =>
  (await t.ctx.db.select({ p: datasource.password }).from(datasource).where(eq(datasource.id, id)))[0]?.p as string;

describe('secret box', () => {
  it('seals with a random IV, opens, and refuses tampering or another key', () => {
    const box = new SecretBox('k'.repeat(40));
    const a = box.seal('pässword');
    expect(a).toMatch(/^enc:v1:/);
    expect(box.seal('pässword')).not.toBe(a);
    expect(box.open(a)).toBe('pässword');
    const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox('x'.repeat(40)).open(a)).toThrow();
    expect(() => new SecretBox('short')).toThrow(/DATA_ENCRYPTION_KEY/);
  });

  it('takes the key from DATA_ENCRYPTION_KEY, else from a file generated in DATA_DIR', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-key-'));
    try {
      const fromEnv = secretBoxFor(dir, { DATA_ENCRYPTION_KEY: 'e'.repeat(48) });
      expect(new SecretBox('e'.repeat(48)).open(fromEnv.seal('x'))).toBe('x');
      expect(fs.existsSync(path.join(dir, 'data-key'))).toBe(false);
      const fromFile = secretBoxFor(dir, {});
      const file = path.join(dir, 'data-key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(new SecretBox(fs.readFileSync(file, 'utf8').trim()).open(fromFile.seal('y'))).toBe('y');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('datasources', () => {
  let id: string;

  it('stores the password encrypted and never returns it', async () => {
    const res = await post(`${API}/submit`, {
      name: '外部库',
      url: 'postgres://127.0.0.1:1/postgres',
      username: 'postgres',
      password: 'pw-secret-1',
    });
    expect(res.json()).toMatchObject({ success: true });
    id = res.json().data;
    const sealed = await stored(id);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain('pw-secret-1');
    expect(secretBoxFor(t.ctx.dataDir).open(sealed)).toBe('pw-secret-1');
    const detail = (await get(`${API}/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({ name: '外部库', username: 'postgres' });
    expect(detail).not.toHaveProperty('password');
    for (const row of (await get(`${API}/list`)).json().data.records) expect(row).not.toHaveProperty('password');
  });

  it('keeps the password on an update without one, and re-encrypts a new one', async () => {
    const before = await stored(id);
    await post(`${API}/submit`, { id, password: '', remark: 'r' });
    expect(await stored(id)).toBe(before);
    await post(`${API}/submit`, { id, password: 'pw-secret-2' });
    expect(secretBoxFor(t.ctx.dataDir).open(await stored(id))).toBe('pw-secret-2');
  });

  it('connects to PostgreSQL and runs select 1', async () => {
    const url = await post(`${API}/test`, { url: SERVER });
    expect(url.json()).toMatchObject({ success: true, msg: '连接成功' });
    const jdbc = await post(`${API}/test`, { url: 'jdbc:postgresql://127.0.0.1:5432/postgres', username: 'postgres' });
    expect(jdbc.json()).toMatchObject({ success: true });
  });

  it('fails cleanly for a wrong port, never echoing the password', async () => {
    const res = await post(`${API}/test`, {
      url: 'postgres://127.0.0.1:1/postgres',
      username: 'postgres',
      password: 'pw-secret-3',
    });
    expect(res.statusCode).toBe(400);
    const msg: string = res.json().msg;
    expect(msg).toMatch(/^连接失败: .*ECONNREFUSED/);
    expect(msg).not.toContain('pw-secret-3');
    expect(msg).not.toContain('\n');
    expect(msg).not.toMatch(/\bat .*\.js/);
    // A saved datasource is tested with its decrypted password.
    const saved = await post(`${API}/test`, { id });
    expect(saved.json().msg).toMatch(/^连接失败: .*ECONNREFUSED/);
    expect(saved.json().msg).not.toContain('pw-secret-2');
    // The form's URL wins over the saved one.
    const edited = await post(`${API}/test`, { id, url: SERVER });
    expect(edited.json()).toMatchObject({ success: true });
  });

  it('refuses other schemes with a clear message', async () => {
    const mysql = await post(`${API}/test`, { url: 'mysql://root@127.0.0.1:3306/mes', username: 'root' });
    expect(mysql.statusCode).toBe(400);
    expect(mysql.json().msg).toBe('只支持 PostgreSQL 连接地址 (postgres://、postgresql:// 或 jdbc:postgresql://)');
    const jdbcMysql = await post(`${API}/test`, { url: 'jdbc:mysql://127.0.0.1:3306/mes' });
    expect(jdbcMysql.json().msg).toContain('只支持 PostgreSQL');
    const none = await post(`${API}/test`, {});
    expect(none.json().msg).toBe('缺少必要的请求参数: url');
    const saveMysql = await post(`${API}/submit`, { name: 'm', url: 'mysql://h/db', username: 'u' });
    expect(saveMysql.json().msg).toBe('只支持 PostgreSQL 连接地址');
  });

  it('reads the JDBC form and lets the datasource user override the URL', () => {
    const parsed = connectionConfig({
      url: 'jdbc:postgresql://db.example.com:6543/mes?sslmode=require',
      username: 'mes',
      password: 'p',
    });
    expect('config' in parsed && parsed.config).toMatchObject({
      host: 'db.example.com',
      port: 6543,
      database: 'mes',
      user: 'mes',
      ssl: { rejectUnauthorized: false },
    });
  });

  it('refuses removing a datasource a tenant uses', async () => {
    await t.ctx.db.update(tenant).set({ datasourceId: id }).where(eq(tenant.tenantId, '000000'));
    const res = await post(`${API}/remove?ids=${id}`, {});
    expect(res.json().msg).toBe('数据源已被租户使用,请先解除绑定');
    await t.ctx.db.update(tenant).set({ datasourceId: null }).where(eq(tenant.tenantId, '000000'));
    expect((await post(`${API}/remove?ids=${id}`, {})).json()).toMatchObject({ success: true });
  });
});
