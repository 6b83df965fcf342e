import { describe, expect, it } from 'vitest';
import { redirectTarget } from './redirect-target';

describe('redirectTarget', () => {
  it('returns to a page of this site, query included', () => {
    expect(redirectTarget('?redirect=%2Fqr-confirm%3Fcode%3Dabc')).toBe('/qr-confirm?code=abc');
    expect(redirectTarget('?redirect=/system/user')).toBe('/system/user');
  });

  it('goes to the desk without a target, or for one that leaves the site or loops', () => {
    for (const search of [
      '',
      '?redirect=',
      '?redirect=//evil.example',
      '?redirect=https://evil.example',
      '?redirect=/\\evil.example',
      '?redirect=/login',
      '?redirect=javascript:alert(1)',
    ])
      expect(redirectTarget(search), search).toBe('/wel/index');
  });
});
