import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionConfig } from '../src/modules/develop/datasource-connect';
import { SecretBox, secretBoxFor } from '../src/platform/crypto/secret-box';
import { datasource, tenant } from '../src/platform/db/schema';
import { createTestApp, type TestApp } from './support/test-app';
import { allowLoopback, setParam } from './support/params';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await allowLoopback(t);
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

/** A TCP port in the allowed range where `behaviour` answers: closed, silent, or not PostgreSQL. */
async function portThat(behaviour: 'closed' | 'silent' | 'garbage'): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    if (behaviour === 'garbage') socket.end('SSH-2.0-OpenSSH_9.6\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  if (behaviour === 'closed') await close();
  return { port, close };
}

describe('datasources', () => {
  let id: string;
  const CLOSED = 'postgres://127.0.0.1:5439/postgres';

  it('stores the password encrypted and never returns it', async () => {
    const res = await post(`${API}/submit`, {
      name: '外部库',
      url: CLOSED,
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

  it('lists every datasource for the code generator, without passwords, to platform callers only', async () => {
    const res = await get(`${API}/select`);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Record<string, unknown>[];
    expect(Array.isArray(rows)).toBe(true);
    expect(rows.find((r) => r.id === id)).toMatchObject({ name: '外部库', url: CLOSED, username: 'postgres' });
    for (const row of rows) expect(row).not.toHaveProperty('password');
    expect(res.body).not.toContain('enc:v1:');
    const anonymous = await t.app.inject({ method: 'GET', url: `${API}/select` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('connects to PostgreSQL and runs select 1', async () => {
    const url = await post(`${API}/test`, { url: SERVER });
    expect(url.json()).toMatchObject({ success: true, msg: '连接成功' });
    const jdbc = await post(`${API}/test`, { url: 'jdbc:postgresql://127.0.0.1:5432/postgres', username: 'postgres' });
    expect(jdbc.json()).toMatchObject({ success: true });
  });

  it('answers closed, silent and non-PostgreSQL ports with one message, never the driver’s text', async () => {
    const closed = await portThat('closed');
    const silent = await portThat('silent');
    const garbage = await portThat('garbage');
    await setParam(t, 'datasource.allowedPorts', `5432-5439,${closed.port},${silent.port},${garbage.port}`);
    try {
      const messages = new Set<string>();
      for (const port of [closed.port, silent.port, garbage.port]) {
        const res = await post(`${API}/test`, {
          url: `postgres://127.0.0.1:${port}/postgres`,
          username: 'postgres',
          password: 'pw-secret-3',
        });
        expect(res.statusCode).toBe(400);
        messages.add(res.json().msg);
      }
      expect([...messages]).toEqual(['连接失败: 无法连接到数据库,请检查地址、端口、用户名和密码']);
    } finally {
      await silent.close();
      await garbage.close();
      await setParam(t, 'datasource.allowedPorts', '5432-5439');
    }
  });

  it('tests a saved datasource with its password only at its own host, port and user', async () => {
    const saved = await post(`${API}/test`, { id });
    expect(saved.json().msg).toBe('连接失败: 无法连接到数据库,请检查地址、端口、用户名和密码');
    expect(saved.body).not.toContain('pw-secret-2');
    const NEW_TARGET = '连接的主机、端口或用户已改变,请重新输入密码';
    for (const change of [
      { url: 'postgres://db.example.com:5439/postgres' },
      { url: 'postgres://127.0.0.1:5432/postgres' },
      { username: 'someone' },
      { url: 'postgres://127.0.0.1:5439/postgres', username: 'Postgres' },
    ]) {
      const res = await post(`${API}/test`, { id, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().msg).toBe(NEW_TARGET);
    }
    // Another database on the same server and account is fine; so is a new target with its password.
    const otherDb = await post(`${API}/test`, { id, url: 'postgres://127.0.0.1:5439/other' });
    expect(otherDb.json().msg).not.toBe(NEW_TARGET);
    const typed = await post(`${API}/test`, { id, url: SERVER, password: 'typed-again' });
    expect(typed.json()).toMatchObject({ success: true });
    // Saving the move needs the password too.
    const moved = await post(`${API}/submit`, { id, url: SERVER });
    expect(moved.json().msg).toBe(NEW_TARGET);
    expect((await post(`${API}/submit`, { id, url: SERVER, password: 'pw-secret-4' })).json()).toMatchObject({
      success: true,
    });
    await post(`${API}/submit`, { id, url: CLOSED, password: 'pw-secret-2' });
  });

  it('allows only the ports the platform allows, when testing and when saving', async () => {
    for (const port of [22, 6379, 80, 5440]) {
      const url = `postgres://127.0.0.1:${port}/postgres`;
      const msg = `端口 ${port} 不在平台允许的范围 5432-5439 内;如需使用,请平台管理员修改参数 datasource.allowedPorts`;
      const res = await post(`${API}/test`, { url, username: 'postgres', password: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(msg);
      expect((await post(`${API}/submit`, { name: 'p', url, username: 'u', password: 'x' })).json().msg).toBe(msg);
    }
  });

  it('refuses the server’s own and private addresses unless the platform allows them', async () => {
    await setParam(t, 'security.outbound.allow', 'none.invalid');
    try {
      for (const [url, host] of [
        ['postgres://127.0.0.1:5432/postgres', '127.0.0.1'],
        ['postgres://localhost:5432/postgres', 'localhost'],
        ['postgres://[::1]:5432/postgres', '::1'],
        ['postgres://[::ffff:127.0.0.1]:5432/postgres', '::ffff:7f00:1'],
        ['postgres://2130706433:5432/postgres', '2130706433'],
        ['postgres://0x7f.1:5432/postgres', '0x7f.1'],
        ['postgres://10.1.2.3:5432/postgres', '10.1.2.3'],
        ['postgres://169.254.169.254:5432/postgres', '169.254.169.254'],
        ['jdbc:postgresql://192.168.1.10:5433/mes', '192.168.1.10'],
      ] as const) {
        const res = await post(`${API}/test`, { url, username: 'postgres', password: 'x' });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().msg, url).toMatch(new RegExp(`^不允许访问地址 ${host.replace(/[.[\]]/g, '\\$&')}\\(`));
        expect(res.json().msg).toContain('security.outbound.allow');
      }
      const saved = await post(`${API}/test`, { id });
      expect(saved.json().msg).toMatch(/^不允许访问地址 127\.0\.0\.1/);
      const submit = await post(`${API}/submit`, { name: 'x', url: SERVER, username: 'postgres', password: 'x' });
      expect(submit.json().msg).toMatch(/^不允许访问地址 127\.0\.0\.1/);
    } finally {
      await allowLoopback(t);
    }
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
