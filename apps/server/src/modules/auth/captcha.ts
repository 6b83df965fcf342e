import { randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { CaptchaResponse } from '@mes/contracts';
import type { EphemeralStore } from '../../platform/store/ephemeral-store';

/** How long a captcha code may be used; each code is good for one attempt only. */
export const CAPTCHA_TTL_MS = 5 * 60 * 1000;
const key = (k: string) => `captcha:${k}`;

export async function createCaptcha(store: EphemeralStore): Promise<CaptchaResponse> {
  const captcha = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', width: 120, height: 40 });
  const captchaKey = randomUUID();
  await store.set(key(captchaKey), captcha.text.toLowerCase(), CAPTCHA_TTL_MS);
  return { key: captchaKey, image: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}` };
}

/** Checks a code and uses it up, whether it matched or not (no second guess on one image). */
export async function consumeCaptcha(store: EphemeralStore, captchaKey: string, code: string): Promise<boolean> {
  if (!captchaKey || !code) return false;
  const expected = await store.take(key(captchaKey));
  return expected !== undefined && expected === code.trim().toLowerCase();
}
