import { describe, expect, it } from 'vitest';
import { registrationProblem } from './register-check';

const full = { tenantId: '000000', name: '张三', account: 'zhangsan', password: 'Secret#1', password2: 'Secret#1' };

describe('registrationProblem', () => {
  it('accepts a complete form', () => {
    expect(registrationProblem(full, true)).toBeUndefined();
    expect(registrationProblem({ ...full, tenantId: '' }, false)).toBeUndefined();
    expect(registrationProblem({ ...full, name: '' }, true)).toBeUndefined();
  });

  it('asks for the tenant code only while its field is shown', () => {
    expect(registrationProblem({ ...full, tenantId: '' }, true)).toBe('tenantRequired');
    expect(registrationProblem({ ...full, tenantId: '  ' }, true)).toBe('tenantRequired');
    expect(registrationProblem({ ...full, tenantId: undefined }, false)).toBeUndefined();
  });

  it('reports the first problem in the spec order', () => {
    expect(registrationProblem({}, true)).toBe('tenantRequired');
    expect(registrationProblem({}, false)).toBe('accountRequired');
    expect(registrationProblem({ account: 'a', password: 'x', password2: 'y' }, true)).toBe('tenantRequired');
    expect(registrationProblem({ ...full, account: '', password: '' }, true)).toBe('accountRequired');
    expect(registrationProblem({ ...full, password: '', password2: 'other' }, true)).toBe('passwordRequired');
    expect(registrationProblem({ ...full, password2: '' }, true)).toBe('passwordRequired');
    expect(registrationProblem({ ...full, password2: 'Secret#2' }, true)).toBe('passwordMismatch');
  });

  it('compares passwords exactly', () => {
    expect(registrationProblem({ ...full, password2: 'Secret#1 ' }, false)).toBe('passwordMismatch');
    expect(registrationProblem({ ...full, password2: 'secret#1' }, false)).toBe('passwordMismatch');
  });
});
