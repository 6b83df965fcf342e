import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { postResource } from '@mes/contracts';
import { fileNameOf } from './download';
import {
  CREATED_RANGE,
  searchFilters,
  searchFormValues,
  seriesRangePlaceholder,
  seriesRangePresets,
} from './search-values';

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

describe('series range', () => {
  it('tells that an empty range means the last day, in both languages', () => {
    expect(seriesRangePlaceholder(24, 'zh')).toEqual(['默认最近 1 天', '至今']);
    expect(seriesRangePlaceholder(24, 'en')).toEqual(['Default: last 1 d', 'now']);
    expect(seriesRangePlaceholder(6, 'zh')[0]).toBe('默认最近 6 小时');
  });
  it('offers ranges ending now: the default span, a week and a month', () => {
    const now = dayjs('2026-11-24 12:00:00');
    const presets = seriesRangePresets(24, 'zh', now);
    expect(presets.map((p) => p.label)).toEqual(['最近 24 小时', '最近 7 天', '最近 30 天']);
    expect(presets.map((p) => p.value[0].format('YYYY-MM-DD HH:mm'))).toEqual([
      '2026-11-23 12:00',
      '2026-11-17 12:00',
      '2026-10-25 12:00',
    ]);
    expect(presets.every((p) => p.value[1].isSame(now))).toBe(true);
  });
});

describe('fileNameOf', () => {
  it('reads plain and encoded names', () => {
    expect(fileNameOf('attachment; filename="post-20240101.xlsx"', 'x.xlsx')).toBe('post-20240101.xlsx');
    expect(fileNameOf("attachment; filename*=UTF-8''%E5%B2%97%E4%BD%8D.xlsx", 'x.xlsx')).toBe('岗位.xlsx');
    expect(fileNameOf(null, 'x.xlsx')).toBe('x.xlsx');
  });
});
