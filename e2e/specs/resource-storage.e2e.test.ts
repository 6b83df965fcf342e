import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { startS3TestServer, type S3TestServer } from '../../apps/server/test/support/s3-test-server';
import { setParam } from '../support/params';

/**
 * 附件管理 and 对象存储 in the browser: upload, list, download and delete an attachment on the
 * server's disk; enable an S3-compatible configuration and test-upload a file through it.
 */
const browser = useBrowser();

/** In-app navigation (no reload), as a menu click does it. */
async function goInApp(page: Page, to: string): Promise<void> {
  await page.evaluate((url) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await page.locator(`[data-screen="${to}"]`).waitFor({ state: 'attached' });
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();

interface PageOf<T> {
  records: T[];
  total: number;
}
interface AttachRow {
  id: string;
  originalName: string;
  link: string;
  ossCode: string;
}
interface OssRow {
  id: string;
  ossCode: string;
}

describe('attachments', () => {
  it('uploads a file, lists it, downloads it with its name and deletes it with its file', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await goInApp(page, '/resource/attach');
    const screen = page.locator('[data-screen="/resource/attach"]');
    const content = Buffer.from('设备点检记录\n1 号消毒柜 正常\n');
    const name = `点检记录-${Date.now()}.txt`;

    await screen.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/plain', buffer: content });
    await toast(page, '上传成功').waitFor();
    const row = screen.locator('.ant-table-row', { hasText: name });
    await row.waitFor();
    // Size is human-readable; the link opens the stored file.
    expect(await row.innerText()).toContain(`${content.length} B`);
    const link = await row.getByTestId('attach-link').getAttribute('href');
    expect(link).toMatch(/^\/api\/blade-resource\/oss\/endpoint\/file\/\d{8}\/[0-9a-f]{32}\.txt$/);
    await page.mouse.move(1200, 800);
    await screenshot(page, 'resource-attach');

    const [file] = await Promise.all([page.waitForEvent('download'), row.getByTestId('attach-download').click()]);
    expect(file.suggestedFilename()).toBe(name);
    expect(fs.readFileSync((await file.path()) as string)).toEqual(content);

    await row.getByTestId('crud-row-delete').click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '确定将选择数据删除?' });
    await confirm.locator('.ant-btn-primary').click();
    await toast(page, '删除成功').waitFor();
    await poll(() => screen.locator('.ant-table-row', { hasText: name }).count()).toBe(0);
    // The stored file went with the row.
    expect(await page.evaluate(async (url) => (await fetch(url as string)).status, link)).toBe(404);
    await context.close();
  });
});

describe('object storage', () => {
  const ACCESS_KEY = 'E2EACCESSKEY00000001';
  const SECRET_KEY = 'e2e-secret-key-0123456789abcdefghij';
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3TestServer({ credentials: { [ACCESS_KEY]: SECRET_KEY }, buckets: ['mes-e2e'] });
  });
  afterAll(() => s3.close());

  it('enables an S3 configuration and test-uploads a file through it', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    // The S3 test server listens on 127.0.0.1, which the platform must allow (docs/outbound.md).
    await setParam(page, 'security.outbound.allow', '127.0.0.1');
    const code = `minio-e2e-${Date.now() % 100000}`;
    const created = await callApi<string>(page, '/api/blade-resource/oss/submit', {
      category: 1,
      ossCode: code,
      endpoint: s3.endpoint,
      accessKey: ACCESS_KEY,
      secretKey: SECRET_KEY,
      bucketName: 'mes-e2e',
      remark: '浏览器测试',
    });
    expect(created.success).toBe(true);
    const configId = created.data;
    try {
      await goInApp(page, '/resource/oss');
      const screen = page.locator('[data-screen="/resource/oss"]');
      const row = screen.locator('.ant-table-row', { hasText: code });
      await row.waitFor();
      // The list shows the access key only in part, and never the secret.
      expect(await row.innerText()).toContain('E2EA****0001');
      expect(await screen.innerText()).not.toContain(SECRET_KEY);
      expect(await row.getByTestId('oss-status').innerText()).toBe('停用');
      expect(await row.getByTestId('oss-debug').isDisabled()).toBe(true);

      await row.getByTestId('oss-enable').click();
      await page.locator('.ant-modal-confirm').locator('.ant-btn-primary').click();
      await toast(page, '启用成功').waitFor();
      await poll(() => row.getByTestId('oss-status').innerText()).toBe('启用');

      await row.getByTestId('oss-debug').click();
      const dialog = page.locator('.ant-modal-content', { hasText: '上传调试' });
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'debug.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hello bucket'),
      });
      const shown = dialog.getByTestId('oss-debug-link');
      await shown.waitFor();
      const link = (await shown.innerText()).trim();
      expect(link).toMatch(new RegExp(`^${s3.endpoint}/mes-e2e/upload/\\d{8}/[0-9a-f]{32}\\.txt$`));
      expect(s3.objects.get(link.slice(`${s3.endpoint}/`.length))?.body.toString()).toBe('hello bucket');
      expect(s3.requests.filter((r) => r.error)).toEqual([]);
      await screenshot(page, 'resource-oss-debug');
      await dialog.getByTestId('oss-debug-close').click();
      await dialog.waitFor({ state: 'hidden' });
      await page.mouse.move(1200, 800);
      await screenshot(page, 'resource-oss');
    } finally {
      // Other browser tests expect files on the server's disk: remove what this test stored and
      // the configuration, so the tenant has none enabled again.
      const attachments = await callApi<PageOf<AttachRow>>(
        page,
        `/api/blade-resource/attach/page?ossCode_equal=${code}&size=100`,
      );
      const ids = attachments.data.records.map((r) => r.id).join(',');
      if (ids) await callApi(page, `/api/blade-resource/attach/remove?ids=${ids}`, {});
      await callApi(page, `/api/blade-resource/oss/remove?ids=${configId}`, {});
      const left = await callApi<PageOf<OssRow>>(page, `/api/blade-resource/oss/list?ossCode=${code}`);
      expect(left.data.total).toBe(0);
      await context.close();
    }
  });
});
