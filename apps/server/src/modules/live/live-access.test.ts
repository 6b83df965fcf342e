import { describe, expect, it } from 'vitest';
import { NoticeAudience, type LiveEvent } from '@mes/contracts';
import { mayReceive, type LiveAccess } from './live-access';

const access = (userId: string): LiveAccess => ({
  tenantId: '000000',
  userId,
  warnings: undefined,
  devices: undefined,
  roleIds: new Set(['7']),
  deptIds: new Set(['8']),
});

const notice = (audienceType: number, audienceIds: string[]) =>
  ({
    type: 'notice',
    action: 'released',
    tenantId: '000000',
    noticeId: '1',
    title: 't',
    audienceType,
    audienceIds,
    at: new Date(0).toISOString(),
  }) as LiveEvent;

describe('a notice event reaches', () => {
  it('the users it names and no one else', () => {
    expect(mayReceive(access('42'), notice(NoticeAudience.users, ['41', '42']))).toBe(true);
    expect(mayReceive(access('43'), notice(NoticeAudience.users, ['41', '42']))).toBe(false);
    // A user id that happens to equal a role or department id of the reader means nothing.
    expect(mayReceive(access('43'), notice(NoticeAudience.users, ['7', '8']))).toBe(false);
  });
});
