import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './lock-return';

describe('safeReturnPath', () => {
  it('keeps an in-app path with its query', () => {
    expect(safeReturnPath('/system/user')).toBe('/system/user');
    expect(safeReturnPath('/system/param?current=2')).toBe('/system/param?current=2');
  });

  it('goes home for anything else', () => {
    for (const bad of [
      undefined,
      42,
      '',
      'system/user',
      '//evil.example/x',
      'https://evil.example',
      '/lock',
      '/login?x=1',
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBe('/');
    }
  });
});
