import { message } from 'antd';
import { website } from '../config/website';
import { getStore } from '../storage/local-store';

/** `attachment; filename*=UTF-8''a%20b.xlsx` or `filename="a.xlsx"` → the file name. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)?.[1];
  return plain?.trim() || fallback;
}

/** The API client's headers for a call answered with bytes (a file, a font, a PDF). */
export function fileRequestHeaders(language?: string): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`,
  };
  const token = getStore<string>('token');
  if (token) headers[website.tokenHeader] = `bearer ${token}`;
  // The sheet's headers and dictionary labels follow the interface language.
  if (language) headers['Accept-Language'] = language === 'en' ? 'en' : 'zh-CN';
  return headers;
}

/**
 * Downloads a file route (export) with the same headers as the API client. A file response is
 * saved through a blob link; an enveloped error is toasted and rejected, like `request` does.
 */
export async function download(
  url: string,
  params: Record<string, string | number | undefined>,
  fallbackName: string,
  language?: string,
): Promise<void> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  const headers = fileRequestHeaders(language);
  const qs = query.toString();
  const res = await fetch(`/api${url}${qs ? `?${qs}` : ''}`, { headers, credentials: 'include' });
  const type = res.headers.get('Content-Type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const body = (await res.json().catch(() => undefined)) as { msg?: string } | undefined;
    const text = body?.msg || res.statusText || 'download failed';
    void message.error(text);
    throw new Error(text);
  }
  const blob = await res.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileNameOf(res.headers.get('Content-Disposition'), fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke later: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
