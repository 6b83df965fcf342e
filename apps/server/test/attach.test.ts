import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResult, PageResult } from '@mes/contracts';
import { attach, param } from '../src/platform/db/schema';
import { createTestApp, type TestApp } from './support/test-app';
import { signInWithScopes } from './support/scoped-user';
import { png } from '../../../test-fixtures/png';

/** Attachments on the local disk: upload, list, serve, download, rename, remove, tenants. */
let t: TestApp;
let admin: string;
let otherTenantAdmin: string;
let plainUser: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const created = await t.as(admin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: '200001', tenantName: '另一家工厂', linkman: 'ops' },
  });
  expect(created.statusCode).toBe(200);
  const [defaultPassword] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  otherTenantAdmin = (await t.signIn('admin', defaultPassword?.value ?? '', '200001')).access_token;
  plainUser = await signInWithScopes(t, { account: 'clerk', codes: [] });
});
afterAll(() => t.close());

interface Uploaded {
  link: string;
  domain: string;
  name: string;
  originalName: string;
  attachId: string;
}

interface AttachRow {
  id: string;
  originalName: string;
  name: string;
  extension: string;
  attachSize: number;
  link: string;
  domainUrl: string;
  ossCode: string;
}

function multipart(filename: string, content: Buffer, type = 'application/octet-stream') {
  const boundary = '----mes-attach-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const putFile = (filename: string, content: Buffer, as = admin, query = '') =>
  t.as(as, {
    method: 'POST',
    url: `/api/blade-resource/oss/endpoint/put-file${query}`,
    ...multipart(filename, content),
  });

async function upload(filename: string, content: Buffer, as = admin, query = ''): Promise<Uploaded> {
  const res = await putFile(filename, content, as, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiResult<Uploaded>>().data;
}

const storedFiles = () => {
  const root = path.join(t.ctx.dataDir, 'upload');
  return fs.existsSync(root)
    ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
    : 0;
};
const liveRows = async () => (await t.ctx.db.select().from(attach).where(eq(attach.isDeleted, 0))).length;

const page = async (as = admin, query = '') => {
  const res = await t.as(as, { method: 'GET', url: `/api/blade-resource/attach/page${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiResult<PageResult<AttachRow>>>().data;
};

const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');

describe('upload to the local disk', () => {
  it('stores a file under a generated key, records the attachment and lists it', async () => {
    const data = await upload('质检报告 2024.pdf', pdf);
    expect(data.name).toMatch(/^upload\/\d{8}\/[0-9a-f]{32}\.pdf$/);
    expect(data.link).toBe(`/api/blade-resource/oss/endpoint/file/${data.name.slice('upload/'.length)}`);
    expect(data.domain).toBe('/api/blade-resource/oss/endpoint/file');
    expect(data.originalName).toBe('质检报告 2024.pdf');
    expect(fs.readFileSync(path.join(t.ctx.dataDir, data.name))).toEqual(pdf);

    const listed = await page(admin, '?originalName=质检报告');
    expect(listed.total).toBe(1);
    expect(listed.records[0]).toMatchObject({
      id: data.attachId,
      originalName: '质检报告 2024.pdf',
      name: data.name,
      extension: 'pdf',
      attachSize: pdf.length,
      link: data.link,
      domainUrl: data.domain,
      ossCode: 'local',
    });
    // The spec's `list` answers the same page.
    const list = await t.as(admin, { method: 'GET', url: '/api/blade-resource/attach/list?extension=pdf' });
    expect(list.json<ApiResult<PageResult<AttachRow>>>().data.records.map((r) => r.id)).toContain(data.attachId);
  });

  it('serves a non-image only as a download, never as a page', async () => {
    const data = await upload('notes.txt', Buffer.from('<script>alert(1)</script>'));
    const served = await t.app.inject({ method: 'GET', url: data.link });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('stores an image by what its bytes are and shows it inline', async () => {
    const data = await upload('scan.dat', png(3));
    expect(data.name).toMatch(/\.png$/);
    const served = await t.app.inject({ method: 'GET', url: data.link });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toBe('inline');
    expect(served.rawPayload).toEqual(png(3));
  });

  it('lets any signed-in user upload (avatars, files in forms), but not list attachments', async () => {
    const data = await upload('plain.txt', Buffer.from('hello'), plainUser);
    expect(data.attachId).toMatch(/^\d+$/);
    const listed = await t.as(plainUser, { method: 'GET', url: '/api/blade-resource/attach/page' });
    expect(listed.statusCode).toBe(403);
  });

  it('records avatar uploads too, as JPG or PNG by content', async () => {
    const data = await upload('头像.png', png(8), admin, '?kind=avatar');
    const [row] = await t.ctx.db.select().from(attach).where(eq(attach.id, data.attachId));
    expect(row).toMatchObject({ originalName: '头像.png', extension: 'png', ossCode: 'local', tenantId: '000000' });
  });
});

describe('bad uploads: a clear message, and nothing stored', () => {
  const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x61);
  it.each([
    ['a file over 20 MB', 'big.bin', big, '', '上传的文件不能超过 20MB'],
    ['an HTML page', 'page.html', Buffer.from('<html></html>'), '', '不允许上传 .html 类型的文件'],
    ['an SVG', 'logo.SVG', Buffer.from('<svg onload="alert(1)"/>'), '', '不允许上传 .svg 类型的文件'],
    ['a program', 'setup.exe', Buffer.from('MZ...'), '', '不允许上传 .exe 类型的文件'],
    ['a script', 'run.js', Buffer.from('alert(1)'), '', '不允许上传 .js 类型的文件'],
    ['a name with a path', '../../etc/passwd', Buffer.from('x'), '', '文件名不正确'],
    ['a name with a Windows path', 'C:\\temp\\a.txt', Buffer.from('x'), '', '文件名不正确'],
    ['a name with a control character', 'a\u0001b.txt', Buffer.from('x'), '', '文件名不正确'],
    ['text named as an image', 'photo.png', Buffer.from('not an image'), '', '文件内容不是 .png 格式的图片'],
    ['an empty file', 'empty.txt', Buffer.alloc(0), '', '上传的文件不能为空'],
    ['an avatar that is a GIF', 'a.gif', Buffer.from('GIF89a......'), '?kind=avatar', '只能上传 JPG 或 PNG 格式的图片'],
    [
      'an avatar over 500 KB',
      'a.png',
      Buffer.concat([png(1), Buffer.alloc(500 * 1024)]),
      '?kind=avatar',
      '上传的文件不能超过 500KB',
    ],
    ['an unknown kind', 'a.txt', Buffer.from('x'), '?kind=logo', '上传类型不正确'],
    ['an unknown configuration', 'a.txt', Buffer.from('x'), '?code=nope', '存储配置 nope 不存在'],
  ])('refuses %s', async (_what, filename, content, query, msg) => {
    const [files, rows] = [storedFiles(), await liveRows()];
    const res = await putFile(filename, content, admin, query);
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiResult<null>>()).toMatchObject({ success: false, msg });
    expect(storedFiles()).toBe(files);
    expect(await liveRows()).toBe(rows);
  });

  it('refuses a request without a file', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n',
    });
    expect(res.json<ApiResult<null>>()).toMatchObject({ code: 400, msg: '请选择要上传的文件' });
  });

  it('lets only callers who may configure storage name a configuration', async () => {
    const res = await putFile('a.txt', Buffer.from('x'), plainUser, '?code=local');
    expect(res.statusCode).toBe(403);
  });
});

describe('download, rename and remove', () => {
  it('downloads with the original name, RFC 5987 encoded', async () => {
    const data = await upload('设备台账.xlsx', Buffer.from('PK\u0003\u0004 spreadsheet'));
    const res = await t.as(admin, { method: 'GET', url: `/api/blade-resource/attach/download?id=${data.attachId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="____.xlsx"; filename*=UTF-8''${encodeURIComponent('设备台账.xlsx')}`,
    );
    expect(res.rawPayload).toEqual(Buffer.from('PK\u0003\u0004 spreadsheet'));
  });

  it('renames the original name only, and refuses adding a row without a file', async () => {
    const data = await upload('draft.txt', Buffer.from('v1'));
    const renamed = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-resource/attach/submit',
      payload: { id: data.attachId, originalName: '定稿.txt', name: 'upload/x', link: 'https://evil.example/x' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [row] = await t.ctx.db.select().from(attach).where(eq(attach.id, data.attachId));
    expect(row).toMatchObject({ originalName: '定稿.txt', name: data.name, link: data.link });

    const withPath = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-resource/attach/submit',
      payload: { id: data.attachId, originalName: '../定稿.txt' },
    });
    expect(withPath.json<ApiResult<null>>()).toMatchObject({ code: 400, msg: '文件名不能包含路径或控制字符' });

    const rows = await liveRows();
    const added = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-resource/attach/submit',
      payload: { originalName: 'ghost.txt' },
    });
    expect(added.json<ApiResult<null>>()).toMatchObject({ code: 400, msg: '附件只能通过上传新增' });
    expect(await liveRows()).toBe(rows);
  });

  it('removes the stored file with the row', async () => {
    const data = await upload('remove-me.txt', Buffer.from('bye'));
    const file = path.join(t.ctx.dataDir, data.name);
    expect(fs.existsSync(file)).toBe(true);
    const res = await t.as(admin, { method: 'POST', url: `/api/blade-resource/attach/remove?ids=${data.attachId}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect((await page(admin, '?originalName=remove-me')).total).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: data.link })).statusCode).toBe(404);
    const gone = await t.as(admin, { method: 'GET', url: `/api/blade-resource/attach/download?id=${data.attachId}` });
    expect(gone.statusCode).toBe(404);
  });

  it('removes the row even when its file is already gone, and says so on download', async () => {
    const data = await upload('lost.txt', Buffer.from('lost'));
    fs.rmSync(path.join(t.ctx.dataDir, data.name));
    const download = await t.as(admin, {
      method: 'GET',
      url: `/api/blade-resource/attach/download?id=${data.attachId}`,
    });
    expect(download.json<ApiResult<null>>()).toMatchObject({ code: 404, msg: '附件文件不存在或已被删除' });
    const res = await t.as(admin, { method: 'POST', url: `/api/blade-resource/attach/remove?ids=${data.attachId}` });
    expect(res.statusCode).toBe(200);
    expect((await page(admin, '?originalName=lost')).total).toBe(0);
  });
});

describe('tenants', () => {
  it('keeps each tenant’s attachments to itself: no list, detail, download or remove', async () => {
    const data = await upload('tenant-a-secret.txt', Buffer.from('only for tenant A'));
    const file = path.join(t.ctx.dataDir, data.name);

    expect((await page(otherTenantAdmin, '?size=100')).records.map((r) => r.id)).not.toContain(data.attachId);
    const detail = await t.as(otherTenantAdmin, {
      method: 'GET',
      url: `/api/blade-resource/attach/detail?id=${data.attachId}`,
    });
    expect(detail.statusCode).toBe(404);
    const download = await t.as(otherTenantAdmin, {
      method: 'GET',
      url: `/api/blade-resource/attach/download?id=${data.attachId}`,
    });
    expect(download.statusCode).toBe(404);
    expect(download.body).not.toContain('only for tenant A');
    const remove = await t.as(otherTenantAdmin, {
      method: 'POST',
      url: `/api/blade-resource/attach/remove?ids=${data.attachId}`,
    });
    expect(remove.json<ApiResult<null>>().success).toBe(false);
    expect(fs.existsSync(file)).toBe(true);
    expect((await page(admin, '?originalName=tenant-a-secret')).total).toBe(1);
  });

  it('records an upload in the uploader’s tenant', async () => {
    const data = await upload('b.txt', Buffer.from('tenant B'), otherTenantAdmin);
    const [row] = await t.ctx.db.select().from(attach).where(eq(attach.id, data.attachId));
    expect(row?.tenantId).toBe('200001');
    expect((await page(otherTenantAdmin)).records.map((r) => r.id)).toContain(data.attachId);
  });
});
