import type { ModelListReply } from '@mes/contracts';
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
  series.push({
    id: 'value',
    type: 'line',
    data: points.map((p) => [p.ts, p.value]),
    showSymbol: points.length < 60,
    symbolSize: 5,
    lineStyle: { width: 2, color: look.line },
    itemStyle: { color: look.line },
    connectNulls: false,
  });
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 28, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw: unknown) => {
        const list = (Array.isArray(raw) ? raw : [raw]) as AxisParam[];
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
