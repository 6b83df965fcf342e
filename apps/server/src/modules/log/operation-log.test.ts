import { describe, expect, it } from 'vitest';
import { defineResource } from '@mes/contracts';
import { describeChanges } from '../../platform/audit/operation-audit';
import { stackLocation } from './log-service';

const def = defineResource({
  code: 'thing',
  title: { zh: '东西', en: 'Things' },
  table: 'thing',
  api: '/thing',
  owner: 'tenant',
  fields: {
    name: { kind: 'string', label: { zh: '名称', en: 'Name' } },
    accessKey: { kind: 'string', label: { zh: '访问密钥', en: 'Key' }, masked: true },
    secret: { kind: 'secret', label: { zh: '秘钥', en: 'Secret' } },
    sort: { kind: 'int', label: { zh: '排序', en: 'Sort' } },
  },
});

describe('describeChanges', () => {
  it('lists every given value when adding, secrets as stars', () => {
    expect(describeChanges(def, undefined, { name: 'a', secret: 's3cr3t', sort: 0, password: 'x' })).toEqual([
      { field: 'name', label: '名称', before: null, after: 'a' },
      { field: 'secret', label: '秘钥', before: null, after: '******' },
      { field: 'sort', label: '排序', before: null, after: '0' },
      { field: 'password', label: 'password', before: null, after: '******' },
    ]);
  });

  it('lists only changed values when updating, masked credentials in part', () => {
    const before = { name: 'a', accessKey: 'LTAI5tAbCdEf9xQk', sort: 1 };
    const changes = describeChanges(def, before, { name: 'a', accessKey: 'LTAI5tZZZZZZ9xQk', sort: 2 });
    expect(changes).toEqual([
      { field: 'accessKey', label: '访问密钥', before: 'LTAI****9xQk', after: 'LTAI****9xQk' },
      { field: 'sort', label: '排序', before: '1', after: '2' },
    ]);
    expect(JSON.stringify(changes)).not.toContain('AbCdEf');
  });
});

describe('stackLocation', () => {
  it('reads the file and line of the first frame', () => {
    const stack = 'Error: boom\n    at handler (/srv/app/src/x.ts:12:7)\n    at other (/srv/y.ts:1:1)';
    expect(stackLocation(stack)).toEqual({ fileName: '/srv/app/src/x.ts', lineNumber: 12 });
    expect(stackLocation('Error: boom\n    at /srv/z.js:3:4')).toEqual({ fileName: '/srv/z.js', lineNumber: 3 });
    expect(stackLocation(undefined)).toEqual({ fileName: '', lineNumber: null });
  });
});
