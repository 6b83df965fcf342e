import { Card, Col, Empty, Row, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { WelcomeOverview } from '@mes/contracts';
import { EChart } from '../../charts/echart';
import { WARNING_LEVEL_HEX } from '../../shell/warning-level';
import type { ChartOption } from '../../charts/echarts-core';

interface ChartsProps {
  data: WelcomeOverview | undefined;
  /** The wall screen: light text on dark, taller charts. */
  wall?: boolean;
  height?: number;
}

/** Cycles per day stacked by result, and warnings per level, of the last 30 days. */
export function OverviewCharts({ data, wall, height = 280 }: ChartsProps) {
  const { t } = useTranslation('wel');
  const { token } = theme.useToken();
  const text = token.colorTextSecondary;
  const days = data?.charts.cycleDays;
  const levels = data?.charts.warningLevels;
  const fontSize = wall ? 16 : 12;

  const cycles = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, textStyle: { color: text, fontSize } },
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      xAxis: {
        type: 'category',
        data: (days ?? []).map((d) => d.day.slice(5)),
        axisLabel: { color: text, fontSize },
      },
      yAxis: { type: 'value', minInterval: 1, axisLabel: { color: text, fontSize } },
      series: [
        { key: 'passes', name: t('charts.pass'), color: token.colorSuccess },
        { key: 'fails', name: t('charts.fail'), color: token.colorError },
        { key: 'aborts', name: t('charts.aborted'), color: token.colorWarning },
      ].map((s) => ({
        type: 'bar' as const,
        stack: 'cycles',
        name: s.name,
        itemStyle: { color: s.color },
        data: (days ?? []).map((d) => d[s.key as 'passes' | 'fails' | 'aborts']),
      })),
    }),
    [days, t, text, fontSize, token.colorSuccess, token.colorError, token.colorWarning],
  );

  const warnings = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 8, right: 8, top: 16, bottom: 8, containLabel: true },
      xAxis: {
        type: 'category',
        data: (levels ?? []).map((l) => t(`level.${l.level}`)),
        axisLabel: { color: text, fontSize },
      },
      yAxis: { type: 'value', minInterval: 1, axisLabel: { color: text, fontSize } },
      series: [
        {
          type: 'bar',
          name: t('charts.count'),
          barMaxWidth: 56,
          data: (levels ?? []).map((l) => ({ value: l.count, itemStyle: { color: WARNING_LEVEL_HEX[l.level] } })),
        },
      ],
    }),
    [levels, t, text, fontSize],
  );

  const noCycles = !!days && days.every((d) => d.passes + d.fails + d.aborts === 0);
  const noWarnings = !!levels && levels.every((l) => l.count === 0);
  const style = { height };
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} lg={wall ? 24 : 14}>
        <Card size="small" title={t('charts.cycles')} className="mes-wel-chart" loading={!data}>
          {noCycles ? (
            <Empty description={t('charts.empty')} style={style} data-testid="wel-chart-cycles-empty" />
          ) : (
            <EChart option={cycles} replaceMerge={['series']} style={style} data-testid="wel-chart-cycles" />
          )}
        </Card>
      </Col>
      <Col xs={24} lg={wall ? 24 : 10}>
        <Card size="small" title={t('charts.warnings')} className="mes-wel-chart" loading={!data}>
          {noWarnings ? (
            <Empty description={t('charts.empty')} style={style} data-testid="wel-chart-warnings-empty" />
          ) : (
            <EChart option={warnings} style={style} data-testid="wel-chart-warnings" />
          )}
        </Card>
      </Col>
    </Row>
  );
}
