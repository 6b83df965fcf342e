import { describe, expect, it } from 'vitest';
import type { FieldLimits, ModelListReply, ProgramBand } from '@mes/contracts';
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
  bands: [],
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

describe('the field chart’s limits and program bands', () => {
  type Mark = { name?: string; yAxis?: number; coord?: [number, number]; xAxis?: number };
  type ValueSeries = {
    id: string;
    data: unknown[];
    markLine?: { data: (Mark | [Mark, Mark])[] };
    markArea?: { data: [Mark, Mark][] };
  };
  const valueOf = (option: ReturnType<typeof seriesChartOption>) =>
    seriesOf(option).find((s) => s.id === 'value') as ValueSeries;
  const band = (over: Partial<ProgramBand>): ProgramBand => ({
    programNo: 1,
    programName: '134℃ 标准',
    kind: 'plateau',
    min: 134,
    max: 137,
    from: 0,
    to: 1_800_000,
    running: false,
    ...over,
  });
  const zh = {
    limit: (which: keyof FieldLimits, value: string) =>
      `${{ hh: '高高限', h: '高限', l: '低限', ll: '低低限' }[which]} ${value}`,
    band: (b: ProgramBand, range: string) => `${b.programName}${b.running ? '(运行中)' : ''} · 平台温度 ${range}`,
  };

  it('draws no marks and no extent series for a field without limits or bands', () => {
    const option = seriesChartOption(reply(0), { ...look, limits: null });
    expect(seriesOf(option).map((s) => s.id)).toEqual(['value']);
    expect(valueOf(option).markLine).toBeUndefined();
    expect(valueOf(option).markArea).toBeUndefined();
  });

  it('draws each given limit as a labelled line, HH to LL, and skips the empty ones', () => {
    const option = seriesChartOption(reply(0), {
      ...look,
      precision: 1,
      limits: { hh: 4.5, h: 4, l: null, ll: 0.5 },
      limitText: zh,
    });
    const lines = valueOf(option).markLine?.data as Mark[];
    expect(lines.map((l) => [l.name, l.yAxis])).toEqual([
      ['高高限 4.5 mg/L', 4.5],
      ['高限 4.0 mg/L', 4],
      ['低低限 0.5 mg/L', 0.5],
    ]);
    // The axis reaches the outermost limits through an invisible pair of points.
    const extent = seriesOf(option).find((s) => s.id === 'limits');
    expect(extent?.data).toEqual([
      [0, 0.5],
      [0, 4.5],
    ]);
  });

  it('shades a program’s plateau band over its cycle, labelled with program and range', () => {
    const option = seriesChartOption(
      { ...reply(0), unit: '℃', bands: [band({}), band({ from: 3_000_000, to: 3_600_000, running: true })] },
      { ...look, limitText: zh },
    );
    const areas = valueOf(option).markArea?.data ?? [];
    expect(areas).toEqual([
      [
        { name: '134℃ 标准 · 平台温度 134–137 ℃', xAxis: 0, yAxis: 134 },
        { xAxis: 1_800_000, yAxis: 137 },
      ],
      [
        { name: '134℃ 标准(运行中) · 平台温度 134–137 ℃', xAxis: 3_000_000, yAxis: 134 },
        { xAxis: 3_600_000, yAxis: 137 },
      ],
    ]);
  });

  it('leaves a narrow band unlabelled, so a day of short cycles does not write over itself', () => {
    const option = seriesChartOption(
      { ...reply(0), bands: [band({ from: 0, to: 60_000 })] },
      { ...look, limitText: zh },
    );
    expect(valueOf(option).markArea?.data[0]?.[0].name).toBe('');
  });

  it('leaves every band unlabelled on a phone (the list under the chart names them)', () => {
    const option = seriesChartOption({ ...reply(0), bands: [band({})] }, { ...look, compact: true, limitText: zh });
    expect(valueOf(option).markArea?.data[0]?.[0].name).toBe('');
  });

  it('labels H and L at the left end and HH and LL at the right, so close limits do not collide', () => {
    const option = seriesChartOption(reply(0), { ...look, limits: { hh: 9, h: 8, l: 1, ll: 0 } });
    const lines = valueOf(option).markLine?.data as (Mark & { label: { position: string } })[];
    expect(lines.map((l) => l.label.position)).toEqual([
      'insideEndTop',
      'insideStartTop',
      'insideStartTop',
      'insideEndTop',
    ]);
  });

  it('draws a minimum only (concentration) as a line over the program’s span', () => {
    const option = seriesChartOption(
      { ...reply(0), bands: [band({ kind: 'concentration', min: 2, max: null })] },
      { ...look, limits: { hh: null, h: 8, l: null, ll: null } },
    );
    const lines = valueOf(option).markLine?.data ?? [];
    expect(lines[0]).toMatchObject({ name: 'H 8 mg/L', yAxis: 8 });
    expect(lines[1]).toMatchObject([{ name: '134℃ 标准 ≥ 2 mg/L', coord: [0, 2] }, { coord: [1_800_000, 2] }]);
    expect(valueOf(option).markArea).toBeUndefined();
    expect(seriesOf(option).find((s) => s.id === 'limits')?.data).toEqual([
      [0, 2],
      [0, 8],
    ]);
  });

  it('keeps the tooltip on the value line when the pointer meets the extent series', () => {
    const option = seriesChartOption(reply(0), { ...look, limits: { hh: 9, h: null, l: null, ll: null } });
    const tooltip = option.tooltip as { formatter: (p: unknown) => string };
    const text = tooltip.formatter([
      { seriesId: 'limits', dataIndex: 1 },
      { seriesId: 'value', dataIndex: 0 },
    ]);
    expect(text).toContain('value: <b>2 mg/L</b>');
  });
});
