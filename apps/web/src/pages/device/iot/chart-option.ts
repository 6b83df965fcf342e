import type { FieldLimits, ModelListReply, ProgramBand } from '@mes/contracts';
import type { ChartOption } from '../../../charts/echarts-core';

export interface ChartLook {
  line: string;
  text: string;
  subtle: string;
  grid: string;
  /** Decimals of the field (its model precision): averages would otherwise show many. */
  precision?: number;
  /**
   * The name the field's enumeration gives a value (phase 3 → 灭菌), in the page's language: the
   * axis is labelled by names and the tooltip gives `name (value)`. Only whole values have names.
   */
  valueName?: (value: number) => string | undefined;
  /** Tooltip labels, in the page's language. */
  labels: { average: string; min: string; max: string; value: string };
  /** The field's HH / H / L / LL (its PLC variable's), drawn as lines; null or absent: none. */
  limits?: FieldLimits | null;
  /**
   * The names of the limits and bands, in the page's language: `limit` names a limit line
   * (`高高限 140`), `band` a program's band (`134℃ 标准 · 平台温度 134–137`).
   */
  /**
   * A narrow chart (a phone): the bands are drawn without their labels, which the list under the
   * chart carries; on a canvas a label longer than its band is cut at the chart's edge.
   */
  compact?: boolean;
  limitText?: {
    limit: (which: keyof FieldLimits, value: string) => string;
    band: (band: ProgramBand, range: string) => string;
  };
}

/** Alarm colours: the outer limits red, the inner ones amber (as the warning levels show them). */
const LIMIT_COLOURS: Record<keyof FieldLimits, string> = {
  hh: '#ff4d4f',
  h: '#faad14',
  l: '#faad14',
  ll: '#ff4d4f',
};
const LIMIT_ORDER: readonly (keyof FieldLimits)[] = ['hh', 'h', 'l', 'll'];
/**
 * The outer limits are labelled at the right end of their line, the inner ones at the left: H
 * and HH lie close together, and labels at the same end would write over each other.
 */
const LIMIT_LABEL_AT: Record<keyof FieldLimits, 'insideEndTop' | 'insideStartTop'> = {
  hh: 'insideEndTop',
  h: 'insideStartTop',
  l: 'insideStartTop',
  ll: 'insideEndTop',
};
export const BAND_COLOUR = '#52c41a';
/**
 * A band narrower than this share of the range is drawn without its label: on a day's chart a
 * device's many short cycles would otherwise write their labels over each other.
 */
const BAND_LABEL_SHARE = 0.15;

type LimitLine = { name: string; value: number; colour: string; at: 'insideEndTop' | 'insideStartTop' };
/** One end of a line segment ECharts draws between two points of the chart. */
type MarkLineEnd = {
  name?: string;
  coord: [number, number];
  lineStyle?: { color: string; type: 'solid'; width: number };
  label?: { formatter: string; position: 'insideStartTop'; color: string };
};

/** The HH / H / L / LL lines of a field (outer red, inner amber), each named by `name`. */
export function limitLines(
  limits: FieldLimits | null | undefined,
  name: (limit: { which: keyof FieldLimits; value: number }) => string,
): LimitLine[] {
  const lines: LimitLine[] = [];
  for (const which of LIMIT_ORDER) {
    const value = limits?.[which];
    if (value === null || value === undefined) continue;
    lines.push({ name: name({ which, value }), value, colour: LIMIT_COLOURS[which], at: LIMIT_LABEL_AT[which] });
  }
  return lines;
}

/** The limit lines as ECharts mark lines: dashed, in their colour, labelled at their end. */
export const limitMarkLines = (lines: readonly LimitLine[]) =>
  lines.map((l) => ({
    name: l.name,
    yAxis: l.value,
    lineStyle: { color: l.colour, type: 'dashed' as const, width: 1 },
    label: { formatter: '{b}', position: l.at, color: l.colour },
  }));

/**
 * ECharts sizes the axis on the data alone: an invisible pair of points at the lowest and highest
 * marked value (at time `at`) keeps every limit line and band on the chart, with round ticks.
 */
export function limitReach(marked: readonly number[], at: number) {
  if (!marked.length) return undefined;
  return {
    id: 'limits',
    type: 'line' as const,
    data: [
      [at, Math.min(...marked)],
      [at, Math.max(...marked)],
    ],
    symbol: 'none',
    lineStyle: { opacity: 0 },
    silent: true,
    tooltip: { show: false },
  };
}

/** The limit lines and program bands of a chart, with the figures each is labelled by. */
export function limitMarks(reply: ModelListReply, look: ChartLook) {
  const digits = look.precision;
  const figure = (v: number) => (digits === undefined ? String(v) : v.toFixed(digits));
  const unit = reply.unit ? ` ${reply.unit}` : '';
  const text = look.limitText ?? {
    limit: (which: keyof FieldLimits, value: string) => `${which.toUpperCase()} ${value}`,
    band: (band: ProgramBand, range: string) => `${band.programName} ${range}`,
  };
  const lines = limitLines(look.limits, (value) => text.limit(value.which, `${figure(value.value)}${unit}`));
  const span = Math.max(1, reply.to - reply.from);
  const bands = reply.bands.map((band) => {
    const range =
      band.min !== null && band.max !== null
        ? `${figure(band.min)}–${figure(band.max)}${unit}`
        : band.min !== null
          ? `≥ ${figure(band.min)}${unit}`
          : `≤ ${figure(band.max ?? 0)}${unit}`;
    const labelled = !look.compact && (band.to - band.from) / span >= BAND_LABEL_SHARE;
    return { band, name: text.band(band, range), labelled };
  });
  return { lines, bands };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Axis labels in local time: the time of day for a day or less, with the date beyond. */
function timeLabel(ms: number, withDate: boolean): string {
  const d = new Date(ms);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return withDate ? `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}` : time;
}
function fullTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

interface AxisParam {
  seriesId?: string;
  dataIndex: number;
}

/**
 * The line of one field over the reply's range. Downsampled replies (bucketSeconds > 0) also
 * draw the band between each bucket's min and max, stacked as min + (max − min) so that only the
 * band is filled; the tooltip then gives the average, min and max of the bucket.
 */
export function seriesChartOption(reply: ModelListReply, look: ChartLook): ChartOption {
  const { points, unit } = reply;
  const banded = reply.bucketSeconds > 0;
  const withDate = reply.to - reply.from > 86_400_000;
  const digits = look.precision;
  const named = (v: number) => (look.valueName && Number.isInteger(v) ? look.valueName(v) : undefined);
  const fmt = (v: number | null) => {
    if (v === null) return '–';
    const text = `${digits === undefined ? v : v.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
    const name = named(v);
    return name === undefined ? text : `${name} (${text})`;
  };
  const series: NonNullable<ChartOption['series']> = [];
  if (banded) {
    series.push(
      {
        id: 'min',
        type: 'line',
        stack: 'band',
        data: points.map((p) => [p.ts, p.min]),
        lineStyle: { opacity: 0 },
        symbol: 'none',
        silent: true,
      },
      {
        id: 'band',
        type: 'line',
        stack: 'band',
        data: points.map((p) => [p.ts, p.min === null || p.max === null ? null : p.max - p.min]),
        lineStyle: { opacity: 0 },
        areaStyle: { color: look.line, opacity: 0.18 },
        symbol: 'none',
        silent: true,
      },
    );
  }
  const marks = limitMarks(reply, look);
  // A band with both bounds is an area; one with a single bound (a minimum concentration) a
  // line over the program's span.
  const areas = marks.bands.filter((b) => b.band.min !== null && b.band.max !== null);
  const edges = marks.bands.filter((b) => b.band.min === null || b.band.max === null);
  series.push({
    id: 'value',
    type: 'line',
    data: points.map((p) => [p.ts, p.value]),
    showSymbol: points.length < 60,
    symbolSize: 5,
    lineStyle: { width: 2, color: look.line },
    itemStyle: { color: look.line },
    connectNulls: false,
    ...(marks.lines.length || edges.length
      ? {
          markLine: {
            silent: true,
            symbol: 'none',
            animation: false,
            data: [
              ...limitMarkLines(marks.lines),
              ...edges.map((e) => {
                const y = e.band.min ?? e.band.max ?? 0;
                const segment: [MarkLineEnd, MarkLineEnd] = [
                  {
                    name: e.labelled ? e.name : '',
                    coord: [e.band.from, y],
                    lineStyle: { color: BAND_COLOUR, type: 'solid', width: 2 },
                    label: { formatter: '{b}', position: 'insideStartTop', color: BAND_COLOUR },
                  },
                  { coord: [e.band.to, y] },
                ];
                return segment;
              }),
            ],
          },
        }
      : {}),
    ...(areas.length
      ? {
          markArea: {
            silent: true,
            animation: false,
            itemStyle: { color: BAND_COLOUR, opacity: 0.12 },
            label: { position: 'insideTopLeft' as const, color: BAND_COLOUR },
            data: areas.map((a) => [
              { name: a.labelled ? a.name : '', xAxis: a.band.from, yAxis: a.band.min ?? 0 },
              { xAxis: a.band.to, yAxis: a.band.max ?? 0 },
            ]),
          },
        }
      : {}),
  });
  const reach = limitReach(
    [
      ...marks.lines.map((l) => l.value),
      ...marks.bands.flatMap((b) => [b.band.min, b.band.max]).filter((v): v is number => v !== null),
    ],
    reply.from,
  );
  if (reach) series.push(reach);
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 28, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw: unknown) => {
        const list = ((Array.isArray(raw) ? raw : [raw]) as AxisParam[]).filter((p) => p.seriesId !== 'limits');
        const point = points[list.find((p) => p.seriesId === 'value')?.dataIndex ?? list[0]?.dataIndex ?? -1];
        if (!point) return '';
        const head = fullTime(point.ts);
        if (!banded) return `${head}<br/>${look.labels.value}: <b>${fmt(point.value)}</b>`;
        return (
          `${head}<br/>${look.labels.average}: <b>${fmt(point.value)}</b>` +
          `<br/>${look.labels.min}: ${fmt(point.min)}<br/>${look.labels.max}: ${fmt(point.max)}`
        );
      },
    },
    xAxis: {
      type: 'time',
      min: reply.from,
      max: reply.to,
      axisLabel: { color: look.subtle, hideOverlap: true, formatter: (v: number) => timeLabel(v, withDate) },
      axisLine: { lineStyle: { color: look.grid } },
      splitLine: { show: false },
    },
    yAxis: {
      type: 'value',
      scale: true,
      name: unit || undefined,
      nameTextStyle: { color: look.subtle, align: 'left' },
      // A named field's ticks are its whole values, labelled by their names where it has them.
      ...(look.valueName ? { minInterval: 1 } : {}),
      axisLabel: look.valueName
        ? { color: look.subtle, formatter: (v: number) => named(v) ?? String(v) }
        : { color: look.subtle },
      splitLine: { lineStyle: { color: look.grid } },
    },
    series,
  };
}
