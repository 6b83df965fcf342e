import { describe, expect, it } from 'vitest';
import { shapeReport, type ReportShape } from './report-shape';

const shape = (limit: number, truncate: boolean): ReportShape => ({
  title: '登记',
  subtitle: '',
  columns: [
    { key: 'recordNo', label: { zh: '记录号', en: 'Record' }, type: 'text' },
    { key: 'result', label: { zh: '结果', en: 'Result' }, type: 'text' },
    { key: 'deptId', label: { zh: '机构', en: 'Department' }, type: 'text' },
  ],
  cells: [
    { key: 'recordNo' },
    {
      key: 'result',
      field: {
        kind: 'int',
        items: [
          { value: '1', label: '合格' },
          { value: '2', label: '不合格' },
        ],
      },
    },
    { key: 'deptId', named: 'deptName' },
  ],
  limit,
  truncate,
});

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    recordNo: `R-${i}`,
    result: 1 + (i % 2),
    deptId: '7',
    deptName: i ? '东区' : '',
  }));

describe('shapeReport', () => {
  it('reads enumerations by their names and references by their labels, the value when the label is empty', () => {
    const shaped = shapeReport(shape(10, false), rows(2));
    expect(shaped).toEqual({
      data: expect.objectContaining({
        rows: [
          { recordNo: 'R-0', result: '合格', deptId: '7' },
          { recordNo: 'R-1', result: '不合格', deptId: '东区' },
        ],
      }),
    });
  });

  it('refuses more rows than the limit, naming the limit, unless the plan cuts them (a preview)', () => {
    expect(shapeReport(shape(3, false), rows(4))).toEqual({ tooMany: 3 });
    const cut = shapeReport(shape(3, true), rows(4));
    expect('data' in cut && cut.data.rows.map((r) => r.recordNo)).toEqual(['R-0', 'R-1', 'R-2']);
    expect('data' in shapeReport(shape(3, false), rows(3))).toBe(true);
  });
});
