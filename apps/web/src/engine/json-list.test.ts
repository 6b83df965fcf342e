import { describe, expect, it } from 'vitest';
import { checkField, enumerationField } from '@mes/contracts';
import { listColumnsOf, listRowsOf, listValueOf } from './json-list';

describe('a json list edited as rows', () => {
  const columns = listColumnsOf(enumerationField.schema);

  it('takes a list of flat objects as columns with their bilingual titles, and nothing else', () => {
    expect(columns?.map((c) => [c.key, c.title.zh, c.title.en])).toEqual([
      ['value', '值', 'Value'],
      ['zh', '中文名称', 'Chinese name'],
      ['en', '英文名称', 'English name'],
    ]);
    expect(listColumnsOf({ type: 'object' })).toBeUndefined();
    expect(
      listColumnsOf({ type: 'array', items: { type: 'object', properties: { a: { type: 'array' } } } }),
    ).toBeUndefined();
  });

  it('reads the form’s JSON text, writes back text the shared check judges, dropping empty rows', () => {
    expect(listRowsOf('[{"value":"1","zh":"加药","en":"Dosing"}]')).toEqual([{ value: '1', zh: '加药', en: 'Dosing' }]);
    expect(listRowsOf('')).toEqual([]);
    expect(listRowsOf('{oops')).toBeUndefined();
    const text = listValueOf(
      [{ value: '1', zh: '加药', en: 'Dosing' }, {}, { value: '1', zh: '保持', en: 'Holding' }],
      columns ?? [],
    );
    expect(JSON.parse(text)).toHaveLength(2);
    expect(checkField(enumerationField, text, 'en')).toBe('Enumeration: [1].value repeats item 1');
  });
});
