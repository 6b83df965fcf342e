import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, avatarProblem, phoneProblem } from './profile-rules';

describe('phoneProblem', () => {
  it('checks emptiness, then length, then the format', () => {
    expect(phoneProblem('')).toBe('phoneEmpty');
    expect(phoneProblem(undefined)).toBe('phoneEmpty');
    expect(phoneProblem('1380013800')).toBe('phoneLength');
    expect(phoneProblem('138001380001')).toBe('phoneLength');
    expect(phoneProblem('abc')).toBe('phoneLength');
    expect(phoneProblem('23800138000')).toBe('phoneFormat');
    expect(phoneProblem('1380013800a')).toBe('phoneFormat');
    expect(phoneProblem('13800138000')).toBeUndefined();
  });
});

describe('avatarProblem', () => {
  it('accepts jpg and png up to 500 KB', () => {
    expect(avatarProblem({ type: 'image/png', size: AVATAR_MAX_BYTES, name: 'a.png' })).toBeUndefined();
    expect(avatarProblem({ type: 'image/jpeg', size: 10, name: 'a.jpg' })).toBeUndefined();
    expect(avatarProblem({ type: '', size: 10, name: 'a.JPEG' })).toBeUndefined();
  });
  it('refuses other types before the size', () => {
    expect(avatarProblem({ type: 'image/gif', size: AVATAR_MAX_BYTES + 1, name: 'a.gif' })).toBe('avatarType');
    expect(avatarProblem({ type: 'text/plain', size: 10, name: 'a.png.txt' })).toBe('avatarType');
    expect(avatarProblem({ type: '', size: 10, name: 'a.svg' })).toBe('avatarType');
  });
  it('refuses more than 500 KB', () => {
    expect(avatarProblem({ type: 'image/png', size: AVATAR_MAX_BYTES + 1, name: 'a.png' })).toBe('avatarSize');
  });
});
