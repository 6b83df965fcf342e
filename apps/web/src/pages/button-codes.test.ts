import { describe, expect, it } from 'vitest';
import {
  buttonCodes,
  enableButtonCode,
  isScreenDef,
  permissionCodes,
  recordButtonCodes,
  REGISTRY,
  screenButtonsOf,
} from '@mes/contracts';

/**
 * The buttons the server seeds beyond each screen's generic ones (what `screenButtonsOf` lists);
 * a record screen's review, correct and verify are generic too (`recordButtonCodes`).
 */
const seeded = new Set(
  REGISTRY.flatMap((entry) => {
    const records = !isScreenDef(entry) && entry.records ? Object.values(recordButtonCodes(entry.code)) : [];
    const generic = new Set<string>([...Object.values(permissionCodes(entry.code)), ...records]);
    return screenButtonsOf(entry)
      .map((b) => b.code)
      .filter((code) => !generic.has(code));
  }),
);
const constants = Object.values(buttonCodes).flatMap((screen) => Object.values(screen) as string[]);

describe('button codes shared by the seeded menu and the screens', () => {
  it('every constant the screens check is a button the menu seeds', () => {
    expect(constants.length).toBeGreaterThan(15);
    expect(constants.filter((code) => !seeded.has(code))).toEqual([]);
  });

  it('every seeded button of a screen has its constant', () => {
    const known = new Set(constants);
    expect([...seeded].filter((code) => !known.has(code))).toEqual([]);
  });

  it('resources with the enable operation seed their 启用 button', () => {
    const enabling = REGISTRY.filter((entry) => 'operations' in entry && entry.operations?.includes('enable'));
    expect(enabling.length).toBeGreaterThan(0);
    for (const entry of enabling) expect(seeded.has(enableButtonCode(entry.code))).toBe(true);
  });

  it('codes read as the server seeds them', () => {
    expect(buttonCodes.user.reset).toBe('user_reset');
    expect(buttonCodes.dataScope.setting).toBe('data_scope_setting');
    expect(enableButtonCode('sms')).toBe('sms_enable');
  });
});
