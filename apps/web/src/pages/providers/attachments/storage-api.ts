import { ossResource, type UploadedFile } from '@mes/contracts';
import { apiPost, resourceRoute } from '../../../api/server-state';

/** The server's limit for general files; it refuses larger ones too. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * Uploads one file as multipart. Without `code` it goes to the tenant's enabled storage (the
 * server's disk when none is); `code` names a configuration (needs `oss:write`); `kind: 'avatar'`
 * holds it to the avatar rule (JPG / PNG by content, at most 500 KB).
 */
export function putFile(
  file: File,
  options: { code?: string; kind?: 'avatar'; silent?: boolean } = {},
): Promise<UploadedFile> {
  const body = new FormData();
  body.append('file', file);
  return apiPost<UploadedFile>(resourceRoute(ossResource, 'endpoint/put-file'), body, {
    params: { code: options.code, kind: options.kind },
    silent: options.silent,
  });
}

/** `1536` → `1.5 KB`. */
export function formatSize(bytes: unknown): string {
  const n = typeof bytes === 'number' ? bytes : Number(bytes);
  if (!Number.isFinite(n) || n < 0) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

/** Only the server's own routes and http(s) addresses become links (never `javascript:`). */
export const safeHref = (link: unknown): string | undefined =>
  typeof link === 'string' && (/^https?:\/\//i.test(link) || /^\/(?!\/)/.test(link)) ? link : undefined;
