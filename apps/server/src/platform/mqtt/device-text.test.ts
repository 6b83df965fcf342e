import { describe, expect, it } from 'vitest';
import { characters, clipText, shownName, storableText, textFault } from './device-text';

describe('device names and texts', () => {
  it('finds control characters: every one in a name, all but tab and line breaks in a text', () => {
    expect(textFault('a\u0000b', 64)).toBe('contains the control character U+0000');
    expect(textFault('a\tb', 64)).toBe('contains the control character U+0009');
    expect(textFault('a\u007f', 64)).toBe('contains the control character U+007F');
    expect(textFault('a\u009f', 64)).toBe('contains the control character U+009F');
    expect(textFault('a\tb\r\n', 64, 'text')).toBeUndefined();
    expect(textFault('a\u0000b', 64, 'text')).toBe('contains the control character U+0000');
    expect(textFault('a\u000bb', 64, 'text')).toBe('contains the control character U+000B');
    expect(textFault('温度 °C', 64)).toBeUndefined();
  });

  it('finds lone surrogates, high or low, and lets pairs through', () => {
    expect(textFault('\ud83d', 64)).toBe('contains a lone surrogate U+D83D (broken UTF-16)');
    expect(textFault('x\ude00y', 64)).toBe('contains a lone surrogate U+DE00 (broken UTF-16)');
    expect(textFault('\ude00\ud83d', 64)).toBe('contains a lone surrogate U+DE00 (broken UTF-16)');
    expect(textFault('😀', 64)).toBeUndefined();
  });

  it('counts characters as PostgreSQL’s varchar does (a surrogate pair is one)', () => {
    expect(characters('😀😀a')).toBe(3);
    expect(characters('\ud83d')).toBe(1);
    expect(textFault('😀'.repeat(64), 64)).toBeUndefined();
    expect(textFault('😀'.repeat(65), 64)).toBe('is longer than 64 characters (65)');
  });

  it('escapes what the log cannot store, and shows names escaped and clipped', () => {
    expect(storableText('a\u0000b\ud800c😀\n')).toBe('a\\u0000b\\ud800c😀\n');
    expect(shownName('a\u0000b\n')).toBe('a\\u0000b\\u000a');
    expect(shownName('x'.repeat(70))).toBe(`${'x'.repeat(64)}…`);
    expect(clipText(`${'x'.repeat(63)}😀`, 64)).toBe('x'.repeat(63));
    expect(clipText('abc', 64)).toBe('abc');
  });
});
