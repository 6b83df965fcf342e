import { describe, expect, it } from 'vitest';
import { formatSize, safeHref } from './storage-api';

describe('attachment cells', () => {
  it('shows sizes human-readable', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(41)).toBe('41 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(500 * 1024)).toBe('500 KB');
    expect(formatSize(20 * 1024 * 1024)).toBe('20.0 MB');
    expect(formatSize('2048')).toBe('2.0 KB');
    expect(formatSize(undefined)).toBe('');
    expect(formatSize(-1)).toBe('');
  });

  it('links only to this server or http(s) addresses', () => {
    expect(safeHref('/api/blade-resource/oss/endpoint/file/20250101/a.png')).toBe(
      '/api/blade-resource/oss/endpoint/file/20250101/a.png',
    );
    expect(safeHref('https://mes.s3.oss-cn-hangzhou.aliyuncs.com/upload/x.pdf')).toBe(
      'https://mes.s3.oss-cn-hangzhou.aliyuncs.com/upload/x.pdf',
    );
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('//evil.example/x')).toBeUndefined();
    expect(safeHref(undefined)).toBeUndefined();
  });
});
