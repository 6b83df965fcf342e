import { ArrowLeftOutlined, CheckCircleOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Skeleton, Space, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  buttonCodes,
  WARNING_AROUND_PATH,
  WARNING_HISTORY_PATH,
  warningResource,
  namedValueText,
  type FieldDef,
  type LocalText,
  type WarningAroundReply,
  type WarningHistoryEntry,
} from '@mes/contracts';
import { apiQuery, invalidateRoutes } from '../../../api/server-state';
import { EChart } from '../../../charts/echart';
import type { ChartOption } from '../../../charts/echarts-core';
import { useSession } from '../../../session/session-store';
import { limitLines, limitMarkLines, limitReach } from '../../device/iot/chart-option';
import { LimitLegend } from '../../device/iot/chart-limits';
import { HandleDialog } from './handle-dialog';
import { dictText } from '../../../engine/dict-text';
import { isUnhandled, LevelTag, StatusTag } from './warning-tags';

const SCREEN = '/report/warning';
const HANDLE = buttonCodes.warning.handle;
const fields: Record<string, FieldDef> = warningResource.fields;
type Warning = Record<string, unknown> & { id: string };
/** Fields shown as the dictionary's or the referenced row's label (`<field>Name`). */
const NAMED = new Set(['deviceId', 'deptId', 'warningType']);

const time = (value: unknown): number | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const d = dayjs(String(value));
  return d.isValid() ? d.valueOf() : undefined;
};

/** The trigger field over time, the threshold as a dashed line, the warning's span shaded. */
type Limits = ReturnType<typeof limitLines>;

function aroundOption(
  around: WarningAroundReply,
  warning: Warning,
  text: (key: string) => string,
  limits: Limits,
): ChartOption {
  const start = time(warning.startTime);
  const reach = limitReach(
    limits.map((l) => l.value),
    time(around.from) ?? 0,
  );
  const end = time(warning.endTime);
  const threshold = around.threshold === null ? Number.NaN : Number(around.threshold);
  const edges = [
    ...(start !== undefined ? [{ xAxis: start, name: text('start') }] : []),
    ...(end !== undefined ? [{ xAxis: end, name: text('end') }] : []),
  ];
  return {
    grid: { left: 48, right: 32, top: 32, bottom: 32, containLabel: true },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', name: around.unit, scale: true },
    series: [
      {
        type: 'line',
        name: around.field,
        showSymbol: around.points.length < 60,
        data: around.points.map((p) => [time(p.ts) ?? 0, p.value]),
        markLine: {
          symbol: 'none',
          label: { formatter: '{b}' },
          data: [
            ...(Number.isFinite(threshold)
              ? [
                  {
                    yAxis: threshold,
                    name: `${text('threshold')} ${around.threshold}`,
                    label: { position: 'insideEndTop' as const },
                    lineStyle: { color: '#ff4d4f', type: 'dashed' as const },
                  },
                ]
              : []),
            ...edges.map((e) => ({ ...e, lineStyle: { color: '#faad14' } })),
            ...limitMarkLines(limits),
          ],
        },
        ...(start !== undefined
          ? {
              markArea: {
                silent: true,
                itemStyle: { color: 'rgba(255, 77, 79, 0.08)' },
                data: [[{ xAxis: start }, { xAxis: end ?? time(around.to) ?? start }]],
              },
            }
          : {}),
      },
      ...(reach ? [reach] : []),
    ],
  };
}

function AroundChart({ warning }: { warning: Warning }) {
  const { t } = useTranslation('warning');
  const { t: iot } = useTranslation('iot');
  const query = useQuery(apiQuery<WarningAroundReply>(WARNING_AROUND_PATH, { id: warning.id }, { silent: true }));
  // The field's HH / H / L / LL, drawn and named as the device's live and history charts do.
  const limits = useMemo(() => {
    const unit = query.data?.unit ? ` ${query.data.unit}` : '';
    return limitLines(query.data?.limits, (l) => iot(`limit.${l.which}`, { value: `${l.value}${unit}` }));
  }, [query.data, iot]);
  const option = useMemo(
    () => (query.data ? aroundOption(query.data, warning, (k) => t(`detail.${k}`), limits) : undefined),
    [query.data, warning, t, limits],
  );
  if (query.isPending) return <Skeleton active />;
  if (query.isError)
    return <Alert type="warning" showIcon message={t('detail.chartFailed')} description={query.error.message} />;
  if (!option || !query.data?.points.length) return <Empty description={t('detail.noPoints')} />;
  return (
    <>
      <EChart option={option} style={{ height: 320 }} data-testid="warning-around-chart" />
      <LimitLegend
        items={limits.map((l) => ({ key: l.name, text: l.name, colour: l.colour }))}
        testId="warning-around-limits"
      />
    </>
  );
}

const HISTORY_COLOR: Record<WarningHistoryEntry['action'], string> = {
  raised: 'red',
  escalated: 'orange',
  cleared: 'blue',
  handled: 'green',
};

/** The warning's history (docs/warnings.md "Escalation"): raised, each escalation and whom it reached, cleared, handled. */
function WarningHistory({ id }: { id: string }) {
  const { t } = useTranslation('warning');
  // Under the warnings' route: handling here and live warning events re-read it with the detail.
  const query = useQuery(apiQuery<WarningHistoryEntry[]>(WARNING_HISTORY_PATH, { id }, { silent: true }));
  if (query.isPending) return <Skeleton active />;
  if (query.isError)
    return <Alert type="warning" showIcon message={t('history.failed')} description={query.error.message} />;
  if (!query.data.length) return <Empty description={t('history.empty')} />;
  const headline = (e: WarningHistoryEntry) =>
    e.action === 'escalated'
      ? t('history.escalated', { role: e.who, minutes: e.afterMinutes })
      : e.action === 'handled'
        ? t('history.handled', { who: e.who })
        : t(`history.${e.action}`);
  return (
    <Timeline
      data-testid="warning-history"
      items={query.data.map((e, i) => {
        const sms = e.sms ? t(`history.sms.${e.sms}`, { detail: e.smsDetail ?? '' }) : '';
        const reached = [e.noticeId ? t('history.notice') : '', e.live ? t('history.live') : '', sms].filter(Boolean);
        return {
          key: `${e.action}-${i}`,
          color: HISTORY_COLOR[e.action],
          children: (
            <div data-testid={`warning-history-${e.action}`}>
              <Typography.Text strong>{headline(e)}</Typography.Text>{' '}
              <Typography.Text type="secondary">{e.at}</Typography.Text>
              {e.action === 'escalated' && (
                <div>
                  {e.users?.length ? t('history.users', { names: e.users.join(', ') }) : t('history.noUsers')}
                  {reached.length ? ` · ${reached.join(' · ')}` : ''}
                </div>
              )}
              {e.action === 'handled' && e.result && <div>{e.result}</div>}
            </div>
          ),
        };
      })}
    />
  );
}

/** 告警详情 (`/report/warning/:id`): every field, the trigger field's curve, 处理 when due. */
export default function WarningDetail() {
  const { t, i18n } = useTranslation('warning');
  const lang: keyof LocalText = i18n.language.startsWith('en') ? 'en' : 'zh';
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const mayHandle = useSession((s) => s.permission[HANDLE] === true);
  const [handling, setHandling] = useState(false);
  const query = useQuery({
    ...apiQuery<Warning>(`${warningResource.api}/detail`, { id }, { silent: true }),
    retry: false,
  });

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(SCREEN)} data-testid="warning-back">
      {t('detail.back')}
    </Button>
  );
  if (query.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  const warning = query.data;
  if (!warning)
    return (
      <Card>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('detail.notFound')} description={query.error?.message} />
          {back}
        </Space>
      </Card>
    );

  const items = Object.entries(fields)
    .filter(([name]) => name !== 'handleUser')
    .map(([name, field]) => {
      const value = warning[name];
      const named = warning[`${name}Name`];
      const shown =
        name === 'level' ? (
          <LevelTag value={value} label={warning.levelName} />
        ) : name === 'status' ? (
          <StatusTag value={value} label={warning.statusName} />
        ) : name === 'warningType' ? (
          dictText('warning_type', value, named, lang)
        ) : NAMED.has(name) ? (
          String(named || value || '')
        ) : (
          // An enumerated trigger value reads by its name: `余氯传感器异常 (104)`.
          (namedValueText(warning, name, lang) ?? String(value ?? ''))
        );
      return {
        key: name,
        label: field.label[lang],
        children: <span data-testid={`warning-field-${name}`}>{shown}</span>,
        span: field.wide ? ('filled' as const) : undefined,
      };
    });

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="warning-detail">
      <Card
        title={
          <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
            {String(warning.warningNo ?? '')}
          </Typography.Text>
        }
        extra={
          mayHandle &&
          isUnhandled(warning.status) && (
            <Button
              type="primary"
              icon={<CheckCircleOutlined />}
              onClick={() => setHandling(true)}
              data-testid="warning-detail-handle"
            >
              {t('handle')}
            </Button>
          )
        }
      >
        <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2, lg: 3 }} items={items} />
      </Card>
      <Card title={t('detail.chart')}>
        <AroundChart warning={warning} />
      </Card>
      <Card title={t('history.title')}>
        <WarningHistory id={warning.id} />
      </Card>
      {back}
      <HandleDialog
        ids={handling ? [warning.id] : []}
        onClose={(changed) => {
          setHandling(false);
          if (changed) void invalidateRoutes(client, warningResource.api);
        }}
      />
    </Space>
  );
}
