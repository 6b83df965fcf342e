import { useQuery } from '@tanstack/react-query';
import { Descriptions, Empty, Modal, Spin, Tag } from 'antd';
import { useMemo } from 'react';
import {
  DISINFECTION_CURVE_ROUTE,
  ParametricResult,
  type CycleCurveReply,
  type ValidatedProfile,
} from '@mes/contracts';
import { apiQuery } from '../../../api/server-state';
import { EChart } from '../../../charts/echart';
import type { ChartOption } from '../../../charts/echarts-core';
import { pageTexts } from '../../../i18n/page-texts';

export const CURVE_TEXT = pageTexts('cycleCurve');
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
                  ...(i === 0
                    ? {
                        name: text.plateau,
                        itemStyle: { color: 'rgba(82, 196, 26, 0.12)' },
                        // Inside the band's left end: above it the legend and the hold's label sit.
                        label: { position: 'insideTopLeft', color: '#389e0d' },
                      }
                    : {}),
                })) as [object, object],
              ]
            : []),
          ...(reply.holdStart !== null && reply.holdEnd !== null
            ? [
                [
                  {
                    xAxis: reply.holdStart,
                    name: text.hold,
                    itemStyle: { color: 'rgba(22, 119, 255, 0.08)' },
                    label: { position: 'insideBottom', color: '#1677ff' },
                  },
                  { xAxis: reply.holdEnd },
                ] as [object, object],
              ]
            : []),
        ] as never,
      },
    });
  const lineLabel = (formatter: string) => ({ formatter, position: 'insideEndTop' as const });
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
              label: lineLabel(text.pressureBand),
              // Each bound named as the one it is: one label for both read as two bands.
              data: [
                { value: p.pressureMin, name: `${text.pressureMin} ${p.pressureMin} kPa` },
                { value: p.pressureMax, name: `${text.pressureMax} ${p.pressureMax} kPa` },
              ].flatMap((bound) =>
                bound.value === null ? [] : [{ yAxis: bound.value, label: lineLabel(bound.name) }],
              ),
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
              label: lineLabel(text.minConcentration),
              data: [{ yAxis: p.minConcentration }],
            }
          : undefined,
    });
  // ECharts sizes an axis on its data alone: the profile's figures widen it, so a band above the
  // curve (a plateau the load never reached) is seen whole rather than cut at the top.
  const reach = (figures: (number | null | undefined)[]) => {
    const known = figures.filter((v): v is number => v !== null && v !== undefined);
    if (!known.length) return {};
    const [low, high] = [Math.min(...known), Math.max(...known)];
    return {
      min: (extent: { min: number }) => Math.floor(Math.min(extent.min, low)),
      max: (extent: { max: number }) => Math.ceil(Math.max(extent.max, high)),
    };
  };
  // The axes carry units only; the legend names the curves.
  const rightUnits = [reply.pressure.length ? 'kPa' : '', reply.concentration.length ? 'mg/L' : '']
    .filter(Boolean)
    .join(' / ');
  return {
    animation: false,
    tooltip: { trigger: 'axis', confine: true },
    legend: { bottom: 0 },
    grid: { left: 8, right: 8, top: 36, bottom: 36, containLabel: true },
    xAxis: { type: 'time', min: reply.startTime, max: reply.endTime, axisLabel: { hideOverlap: true } },
    yAxis: [
      { type: 'value', name: '℃', scale: true, ...reach([p?.plateauMin, p?.plateauMax]) },
      {
        type: 'value',
        name: rightUnits,
        scale: true,
        splitLine: { show: false },
        ...(rightUnits ? reach([p?.pressureMin, p?.pressureMax, p?.minConcentration]) : {}),
      },
    ],
    series,
  };
}

/** What a record row says of its judgement (docs/lethality.md), as the record list sends it. */
export interface JudgedRecord {
  id: string;
  lethalityKind?: unknown;
  lethality?: unknown;
  holdAchievedSeconds?: unknown;
  parametricResult?: unknown;
  parametricReason?: unknown;
}

const fill = (template: string, n: string | number) => template.replace('{n}', String(n));
const present = (value: unknown) => value !== null && value !== undefined && value !== '';
/** A figure without trailing zeros (numeric(14, 2) comes as `612.50`). */
const figure = (value: unknown) => String(Number(value));
const rangeText = (min: number | null, max: number | null, unit: string) =>
  min !== null && max !== null ? `${min}–${max} ${unit}` : min !== null ? `≥ ${min} ${unit}` : `≤ ${max} ${unit}`;

/**
 * The judgement beside the curve: A0 / F0 against its minimum, the hold achieved against the
 * minimum hold, the parametric result with the limit it broke, and the profile's bands.
 */
function JudgementFacts({
  record,
  profile,
  text,
  reasonIn,
}: {
  record: JudgedRecord;
  profile: ValidatedProfile | null;
  text: Text;
  reasonIn: (reason: unknown) => string;
}) {
  const kind = String(record.lethalityKind ?? profile?.lethalityKind ?? 'none');
  const lethal = kind === 'A0' || kind === 'F0';
  // A0 is in seconds, F0 in minutes (docs/lethality.md).
  const unit = (n: string | number) => (kind === 'F0' ? fill(text.minutes, n) : String(n));
  const result = Number(record.parametricResult ?? ParametricResult.none);
  const items = [
    ...(lethal
      ? [
          {
            key: 'lethality',
            label: kind,
            children: (
              <span data-testid="curve-lethality">
                {present(record.lethality) ? unit(figure(record.lethality)) : '–'}
                {profile?.minLethality !== null && profile?.minLethality !== undefined
                  ? ` (${fill(text.atLeast, unit(profile.minLethality))})`
                  : ''}
              </span>
            ),
          },
        ]
      : []),
    {
      key: 'hold',
      label: text.holdTime,
      children: (
        <span data-testid="curve-hold">
          {present(record.holdAchievedSeconds) ? fill(text.seconds, Number(record.holdAchievedSeconds)) : '–'}
          {profile?.minHoldSeconds !== null && profile?.minHoldSeconds !== undefined
            ? ` (${fill(text.atLeast, fill(text.seconds, profile.minHoldSeconds))})`
            : ''}
        </span>
      ),
    },
    {
      key: 'result',
      label: text.result,
      children: (
        <span data-testid="curve-result">
          <Tag
            color={result === ParametricResult.fail ? 'red' : result === ParametricResult.pass ? 'green' : 'default'}
          >
            {result === ParametricResult.fail ? text.fail : result === ParametricResult.pass ? text.pass : text.none}
          </Tag>
          {result === ParametricResult.fail ? reasonIn(record.parametricReason) : ''}
        </span>
      ),
      span: result === ParametricResult.fail ? ('filled' as const) : undefined,
    },
    ...(profile && (profile.plateauMin !== null || profile.plateauMax !== null)
      ? [
          {
            key: 'plateau',
            label: text.plateau,
            children: <span data-testid="curve-plateau">{rangeText(profile.plateauMin, profile.plateauMax, '℃')}</span>,
          },
        ]
      : []),
    ...(profile && (profile.pressureMin !== null || profile.pressureMax !== null)
      ? [
          {
            key: 'pressure',
            label: text.pressureBand,
            children: rangeText(profile.pressureMin, profile.pressureMax, 'kPa'),
          },
        ]
      : []),
    ...(profile?.minConcentration !== null && profile?.minConcentration !== undefined
      ? [{ key: 'concentration', label: text.minConcentration, children: `${profile.minConcentration} mg/L` }]
      : []),
  ];
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 2, md: 3, lg: 3, xl: 3, xxl: 3 }}
      items={items}
      style={{ marginBottom: 12 }}
      data-testid="disinfection-curve-facts"
    />
  );
}

/** The dialog of one record's curve, with its judgement and its program's profile. */
export function CycleCurveDialog({
  record,
  text,
  reasonIn,
  onClose,
}: {
  record: JudgedRecord;
  text: Text;
  reasonIn: (reason: unknown) => string;
  onClose: () => void;
}) {
  const query = useQuery(apiQuery<CycleCurveReply>(DISINFECTION_CURVE_ROUTE, { id: record.id }));
  const reply = query.data;
  const option = useMemo(() => (reply ? curveOption(reply, text) : null), [reply, text]);
  const empty = reply && !reply.temperature.length && !reply.pressure.length && !reply.concentration.length;
  return (
    <Modal open title={text.title} width={900} footer={null} onCancel={onClose} data-testid="disinfection-curve">
      {query.isPending ? (
        <Spin />
      ) : (
        <>
          <JudgementFacts record={record} profile={reply?.profile ?? null} text={text} reasonIn={reasonIn} />
          {empty || !option ? (
            <Empty description={text.empty} />
          ) : (
            <EChart option={option} style={{ height: 420 }} data-testid="disinfection-curve-chart" />
          )}
        </>
      )}
    </Modal>
  );
}
