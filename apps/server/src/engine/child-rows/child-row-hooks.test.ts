import { describe, expect, it } from 'vitest';
import {
  apiLogResource,
  defineResource,
  lineResource,
  type ChildrenCheck,
  type FieldChange,
  type Row,
} from '@mes/contracts';
import type { AuthContext } from '../../platform/auth/request-auth';
import type { ChangeArgs, RemoveArgs, ResourceBinding, ResourceHooks, Tx } from '../resource-hooks';
import { seriesPlugin } from '../series/series-plugin';
import { childRowHooks, type ChildRowStore } from './child-row-hooks';
import { childRowsPlugin } from './child-rows-plugin';

/** A store that writes down what the hooks asked of it, in order. */
function recordingStore(calls: string[]): ChildRowStore {
  const checked = { rows: { stops: [] }, errors: [] } as unknown as ChildrenCheck;
  return {
    check(body) {
      calls.push(`check ${String(body.name)}`);
      return checked;
    },
    async save(_tx, _auth, parentId, rows) {
      calls.push(`save ${parentId} ${rows === checked ? 'checked rows' : 'other rows'}`);
      return [{ field: 'stops[1]', label: '站点第 1 行', before: null, after: 'x' }];
    },
    async attach(_db, _auth, parents) {
      calls.push('attach');
      return parents.map((p) => ({ ...p, stops: [] }));
    },
    async removeFor(_tx, _auth, ids) {
      calls.push(`removeFor ${ids.join(',')}`);
    },
  };
}

/** Module hooks that write down when they run. */
const ownHooks = (calls: string[]): ResourceHooks => ({
  validate: () => void calls.push('own validate'),
  afterChange: async () => void calls.push('own afterChange'),
  decorateDetail: async (row) => (calls.push('own decorateDetail'), { ...row, own: true }),
  afterRemove: async () => void calls.push('own afterRemove'),
});

const auth = { tenantId: '000000', userId: '1' } as unknown as AuthContext;
const tx = {} as Tx;
const changeArgs = (body: Record<string, unknown>, logged: FieldChange[]): ChangeArgs & { id: string } => ({
  tx,
  auth,
  adding: true,
  values: {},
  existing: undefined,
  body,
  afterCommit: () => undefined,
  enqueue: async () => '',
  logChanges: (changes) => void logged.push(...changes),
  id: '42',
});

describe('childRowHooks', () => {
  it('checks with the fields, then saves the checked rows before the module’s afterChange, into the record', async () => {
    const calls: string[] = [];
    const hooks = childRowHooks(recordingStore(calls), {} as never, ownHooks(calls));
    const body = { name: 'L1' };
    hooks.validate?.(body, true);
    const logged: FieldChange[] = [];
    await hooks.afterChange?.(changeArgs(body, logged));
    expect(calls).toEqual(['own validate', 'check L1', 'save 42 checked rows', 'own afterChange']);
    expect(logged.map((c) => c.field)).toEqual(['stops[1]']);
  });

  it('adds the collections to the detail after the module’s own, and removes them before its afterRemove', async () => {
    const calls: string[] = [];
    const hooks = childRowHooks(recordingStore(calls), {} as never, ownHooks(calls));
    const detail = await hooks.decorateDetail?.({ id: '7' }, auth);
    expect(detail).toEqual({ id: '7', own: true, stops: [] });
    const removed: RemoveArgs = {
      tx,
      auth,
      rows: [{ id: '7' }, { id: '8' }] as Row[],
      afterCommit: () => undefined,
      enqueue: async () => '',
    };
    await hooks.afterRemove?.(removed);
    expect(calls).toEqual(['own decorateDetail', 'attach', 'removeFor 7,8', 'own afterRemove']);
  });

  it('keeps the module’s other hooks as they are', () => {
    const decorate = async (rows: Row[]) => rows;
    const hooks = childRowHooks(recordingStore([]), {} as never, { decorate });
    expect(hooks.decorate).toBe(decorate);
  });
});

describe('which definitions get the plug-ins', () => {
  const plain = defineResource({
    code: 'plain_thing',
    title: { zh: '物件', en: 'Things' },
    table: 'mes_test_plain_thing',
    api: '/mes-test/plain-thing',
    owner: 'tenant',
    fields: { name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 16 } },
  });
  const binding = (def: ResourceBinding['def']) => ({ def }) as ResourceBinding;
  const ops = new Set(['list', 'detail', 'submit', 'remove']);

  it('gives child rows only to definitions that declare collections, series paging only to series', () => {
    expect(childRowsPlugin.appliesTo(binding(lineResource), ops)).toBe(true);
    expect(childRowsPlugin.appliesTo(binding(plain), ops)).toBe(false);
    expect(seriesPlugin.appliesTo(binding(apiLogResource), ops)).toBe(true);
    expect(seriesPlugin.appliesTo(binding(plain), ops)).toBe(false);
  });
});
