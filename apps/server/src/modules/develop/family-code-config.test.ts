import { describe, expect, it } from 'vitest';
import { codeConfigFromFamily } from './family-code-config';

describe('a code configuration in the family’s shape', () => {
  const family = {
    serviceName: 'blade-desk',
    codeName: '通知公告',
    tableName: 'blade_notice',
    tablePrefix: 'blade_',
    packageName: 'org.springblade.desk',
    baseMode: '2',
    wrapMode: '1',
    apiPath: '/home/dev/SpringBlade/blade-service/blade-desk',
    webPath: 'D:\\Saber',
  };

  it('is read as ours, the family-only fields dropped', () => {
    expect(codeConfigFromFamily(family)).toEqual({
      codeName: '通知公告',
      codeNameEn: 'Notice',
      tableName: 'blade_notice',
      tablePrefix: 'blade_',
      packageName: 'desk',
      baseMode: 3,
      apiPath: '/blade-desk/notice',
      webPath: '',
    });
  });

  it('keeps what the family sent of ours: an English title, an API path that is one', () => {
    const read = codeConfigFromFamily({ ...family, codeNameEn: 'Notices', apiPath: '/desk/notice', baseMode: 1 });
    expect(read).toMatchObject({ codeNameEn: 'Notices', apiPath: '/desk/notice', baseMode: 1 });
  });

  it('names the path after the package when the service name is not a path segment', () => {
    expect(codeConfigFromFamily({ ...family, serviceName: 'Blade Desk', tableName: 'blade_gauge_log' })).toMatchObject({
      apiPath: '/desk/gauge-log',
      codeNameEn: 'Gauge log',
    });
  });

  it('leaves a body of our own shape as it is', () => {
    const ours = { codeName: '量具', tableName: 'mes_gauge', packageName: 'business', baseMode: 2, apiPath: '/x' };
    expect(codeConfigFromFamily(ours)).toBe(ours);
  });
});
