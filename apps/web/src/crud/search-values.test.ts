import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { postResource } from '@mes/contracts';
import { fileNameOf } from './download';
import { CREATED_RANGE, searchFilters, searchFormValues } from './search-values';

const fields = { category: postResource.fields.category, postCode: postResource.fields.postCode };

describe('search values', () => {
  it('drop empty values and send the created range as createTime_dategt / _datelt', () => {
    const filters = searchFilters(fields, {
      category: undefined,
      postCode: ' ceo ',
      [CREATED_RANGE]: [dayjs('2024-01-02 03:04:05'), null],
    });
    expect(filters).toEqual({ postCode: 'ceo', createTime_dategt: '2024-01-02 03:04:05' });
    expect(searchFilters(fields, {})).toEqual({});
  });
  it('fill the form back from the filters', () => {
    const values = searchFormValues(fields, {
      category: '1',
      createTime_dategt: '2024-01-02 03:04:05',
      createTime_datelt: '2024-02-01 00:00:00',
    });
    expect(values.category).toBe('1');
    const range = values[CREATED_RANGE] as dayjs.Dayjs[];
    expect(range.map((d) => d.format('YYYY-MM-DD HH:mm:ss'))).toEqual(['2024-01-02 03:04:05', '2024-02-01 00:00:00']);
  });
});

describe('fileNameOf', () => {
  it('reads plain and encoded names', () => {
    expect(fileNameOf('attachment; filename="post-20240101.xlsx"', 'x.xlsx')).toBe('post-20240101.xlsx');
    expect(fileNameOf("attachment; filename*=UTF-8''%E5%B2%97%E4%BD%8D.xlsx", 'x.xlsx')).toBe('岗位.xlsx');
    expect(fileNameOf(null, 'x.xlsx')).toBe('x.xlsx');
  });
});
