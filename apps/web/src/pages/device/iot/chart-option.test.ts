import { describe, expect, it } from 'vitest';
import type { ModelListReply } from '@mes/contracts';
import { seriesChartOption, type ChartLook } from './chart-option';

const look: ChartLook = {
  line: '#409eff',
  text: '#000',
  subtle: '#666',
  grid: '#eee',
  labels: { average: 'avg', min: 'min', max: 'max', value: 'value' },
};

const reply = (bucketSeconds: number): ModelListReply => ({
  deviceCode: 'WL-1',
  field: 'chlorine',
  unit: 'mg/L',
  from: 0,
  to: 3_600_000,
  bucketSeconds,
  points: [
    { ts: 1_000, value: 2, min: 1, max: 4, count: bucketSeconds ? 3 : 1 },
    { ts: 2_000, value: null, min: null, max: null, count: 0 },
  ],
});

const seriesOf = (option: ReturnType<typeof seriesChartOption>) =>
  (Array.isArray(option.series) ? option.series : [option.series]) as { id: string; data: unknown[] }[];

describe('the field chart', () => {
  it('draws raw points as one line over the whole range read', () => {
    const option = seriesChartOption(reply(0), look);
    const series = seriesOf(option);
    expect(series.map((s) => s.id)).toEqual(['value']);
    expect(series[0]?.data).toEqual([
      [1_000, 2],
      [2_000, null],
    ]);
    expect(option.xAxis).toMatchObject({ type: 'time', min: 0, max: 3_600_000 });
  });

  it('adds the min–max band when the server downsampled, stacked so only the band is filled', () => {
    const series = seriesOf(seriesChartOption(reply(60), look));
    expect(series.map((s) => s.id)).toEqual(['min', 'band', 'value']);
    expect(series[0]?.data).toEqual([
      [1_000, 1],
      [2_000, null],
    ]);
    // max − min on top of min: the band spans min..max.
    expect(series[1]?.data).toEqual([
      [1_000, 3],
      [2_000, null],
    ]);
  });

  it('tells average, min and max of a bucket in the tooltip', () => {
    const option = seriesChartOption(reply(60), look);
    const tooltip = option.tooltip as { formatter: (p: unknown) => string };
    const text = tooltip.formatter([{ seriesId: 'value', dataIndex: 0 }]);
    expect(text).toContain('avg: <b>2 mg/L</b>');
    expect(text).toContain('min: 1 mg/L');
    expect(text).toContain('max: 4 mg/L');
  });

  it('labels an enumerated field’s axis and tooltip by the names of its whole values', () => {
    const names: Record<number, string> = { 2: '保持', 3: '冲洗' };
    const option = seriesChartOption({ ...reply(0), unit: '' }, { ...look, valueName: (v) => names[v] });
    const axis = option.yAxis as { minInterval?: number; axisLabel: { formatter: (v: number) => string } };
    expect(axis.minInterval).toBe(1);
    expect(axis.axisLabel.formatter(3)).toBe('冲洗');
    expect(axis.axisLabel.formatter(4)).toBe('4');
    const tooltip = option.tooltip as { formatter: (p: unknown) => string };
    expect(tooltip.formatter([{ seriesId: 'value', dataIndex: 0 }])).toContain('value: <b>保持 (2)</b>');
    // An average between two phases has no name.
    const banded = seriesChartOption(
      { ...reply(60), unit: '', points: [{ ts: 1_000, value: 2.5, min: 2, max: 3, count: 2 }] },
      { ...look, valueName: (v) => names[v] },
    );
    const text = (banded.tooltip as { formatter: (p: unknown) => string }).formatter([
      { seriesId: 'value', dataIndex: 0 },
    ]);
    expect(text).toContain('avg: <b>2.5</b>');
    expect(text).toContain('max: 冲洗 (3)');
  });
});
