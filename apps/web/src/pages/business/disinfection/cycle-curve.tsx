import { useQuery } from '@tanstack/react-query';
import { Empty, Modal, Spin } from 'antd';
import { useMemo } from 'react';
import { DISINFECTION_CURVE_ROUTE, type CycleCurveReply } from '@mes/contracts';
import { apiQuery } from '../../../api/server-state';
import { EChart } from '../../../charts/echart';
import type { ChartOption } from '../../../charts/echarts-core';

export const CURVE_TEXT = {
  zh: {
    curve: '曲线',
    title: '周期曲线与验证参数',
    temperature: '温度(℃)',
    pressure: '压力(kPa)',
    concentration: '浓度(mg/L)',
    plateau: '平台温度带',
    pressureBand: '压力带',
    hold: '实际维持',
    minConcentration: '最低浓度',
    empty: '该周期没有曲线数据',
  },
  en: {
    curve: 'Curve',
    title: 'Cycle curve and validated profile',
    temperature: 'Temperature (°C)',
    pressure: 'Pressure (kPa)',
    concentration: 'Concentration (mg/L)',
    plateau: 'Plateau band',
    pressureBand: 'Pressure band',
    hold: 'Hold achieved',
    minConcentration: 'Min concentration',
    empty: 'No curve points for this cycle',
  },
};
type Text = (typeof CURVE_TEXT)['zh'];

/**
 * The option of a cycle's chart: temperature on the left axis with the plateau band shaded and the
 * hold the points prove marked along the time axis; pressure (with its band) and concentration
 * (with its minimum) on the right axis. The profile is the program's (docs/lethality.md).
 */
export function curveOption(reply: CycleCurveReply, text: Text): ChartOption {
  const p = reply.profile;
  const band = (min: number | null, max: number | null) => [{ yAxis: min ?? 'min' }, { yAxis: max ?? 'max' }];
  const series: NonNullable<ChartOption['series']> = [];
  if (reply.temperature.length)
    series.push({
      id: 'temperature',
      name: text.temperature,
      type: 'line',
      yAxisIndex: 0,
      symbol: 'none',
      data: reply.temperature,
      markArea: {
        silent: true,
        data: [
          ...(p && (p.plateauMin !== null || p.plateauMax !== null)
            ? [
                band(p.plateauMin, p.plateauMax).map((edge, i) => ({
                  ...edge,
                  ...(i === 0 ? { name: text.plateau, itemStyle: { color: 'rgba(82, 196, 26, 0.12)' } } : {}),
                })) as [object, object],
              ]
            : []),
          ...(reply.holdStart !== null && reply.holdEnd !== null
            ? [
                [
                  { xAxis: reply.holdStart, name: text.hold, itemStyle: { color: 'rgba(22, 119, 255, 0.08)' } },
                  { xAxis: reply.holdEnd },
                ] as [object, object],
              ]
            : []),
        ] as never,
      },
    });
  if (reply.pressure.length)
    series.push({
      id: 'pressure',
      name: text.pressure,
      type: 'line',
      yAxisIndex: 1,
      symbol: 'none',
      data: reply.pressure,
      markLine:
        p && (p.pressureMin !== null || p.pressureMax !== null)
          ? {
              silent: true,
              symbol: 'none',
              label: { formatter: text.pressureBand },
              data: [p.pressureMin, p.pressureMax].filter((v) => v !== null).map((v) => ({ yAxis: v })),
            }
          : undefined,
    });
  if (reply.concentration.length)
    series.push({
      id: 'concentration',
      name: text.concentration,
      type: 'line',
      yAxisIndex: 1,
      symbol: 'none',
      data: reply.concentration,
      markLine:
        p?.minConcentration !== null && p?.minConcentration !== undefined
          ? {
              silent: true,
              symbol: 'none',
              label: { formatter: text.minConcentration },
              data: [{ yAxis: p.minConcentration }],
            }
          : undefined,
    });
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: {},
    grid: { left: 56, right: 56, top: 40, bottom: 40 },
    xAxis: { type: 'time', min: reply.startTime, max: reply.endTime },
    yAxis: [
      { type: 'value', name: text.temperature, scale: true },
      { type: 'value', name: `${text.pressure} / ${text.concentration}`, scale: true, splitLine: { show: false } },
    ],
    series,
  };
}

/** The dialog of one record's curve. */
export function CycleCurveDialog({ id, text, onClose }: { id: string; text: Text; onClose: () => void }) {
  const query = useQuery(apiQuery<CycleCurveReply>(DISINFECTION_CURVE_ROUTE, { id }));
  const reply = query.data;
  const option = useMemo(() => (reply ? curveOption(reply, text) : null), [reply, text]);
  const empty = reply && !reply.temperature.length && !reply.pressure.length && !reply.concentration.length;
  return (
    <Modal open title={text.title} width={900} footer={null} onCancel={onClose} data-testid="disinfection-curve">
      {query.isPending ? (
        <Spin />
      ) : empty || !option ? (
        <Empty description={text.empty} />
      ) : (
        <EChart option={option} style={{ height: 420 }} data-testid="disinfection-curve-chart" />
      )}
    </Modal>
  );
}
