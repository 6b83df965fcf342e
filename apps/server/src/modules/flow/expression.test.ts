import { describe, expect, it } from 'vitest';
import { checkTemplate, evaluateTemplate } from './expression';

describe('model expressions', () => {
  const vars = { days: 5, pass: true, type: 'sick', user: { dept: '12' }, taskUser: '42' };

  it('evaluates conditions over the variables', () => {
    expect(evaluateTemplate('${days > 3}', vars)).toBe(true);
    expect(evaluateTemplate('${pass && days > 3}', vars)).toBe(true);
    expect(evaluateTemplate('${!pass || days <= 3}', vars)).toBe(false);
    expect(evaluateTemplate('${days gt 3 and type eq "sick"}', vars)).toBe(true);
    expect(evaluateTemplate('${pass == false}', vars)).toBe(false);
    expect(evaluateTemplate('${missing}', vars)).toBeUndefined();
    expect(evaluateTemplate('${empty missing}', vars)).toBe(true);
    expect(evaluateTemplate('${days >= 5 ? "long" : "short"}', vars)).toBe('long');
    expect(evaluateTemplate('${(days - 1) * 2 + 1}', vars)).toBe(9);
  });

  it('reads members of object variables, never their prototype', () => {
    expect(evaluateTemplate('${user.dept}', vars)).toBe('12');
    expect(evaluateTemplate('${user.constructor}', vars)).toBeUndefined();
    expect(evaluateTemplate('${constructor}', vars)).toBeUndefined();
    expect(evaluateTemplate('${user.__proto__}', vars)).toBeUndefined();
  });

  it('fills text templates and leaves plain text alone', () => {
    expect(evaluateTemplate('taskUser_${taskUser}', vars)).toBe('taskUser_42');
    expect(evaluateTemplate('hr,manager', vars)).toBe('hr,manager');
  });

  it('refuses what is not an expression, naming the fault', () => {
    expect(checkTemplate('${days >}')).toMatchObject({ zh: expect.stringContaining('表达式不完整') as unknown });
    expect(checkTemplate('${process.exit(1)}')).toMatchObject({ en: expect.stringContaining('left over') as unknown });
    expect(checkTemplate('${a; b}')).toMatchObject({ zh: expect.stringContaining('无法识别') as unknown });
    expect(checkTemplate('${days > 3}')).toBeUndefined();
  });
});
