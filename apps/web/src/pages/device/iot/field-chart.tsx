import { Alert, Card, DatePicker, Empty, Segmented, Select, Space, Spin, theme, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnumEntry, FieldLimits, LocalText, ModelDataItem, ModelListReply } from '@mes/contracts';
import { EChart } from '../../../charts/echart';
import { BAND_COLOUR, limitMarks, seriesChartOption, type ChartLook } from './chart-option';
import { durationText, isChartable, valueName } from './format';
import { RANGE_PRESETS, type ChartRange, type RangePreset } from './live-data';
import { LimitLegend } from './chart-limits';

export interface FieldChartProps {
  fields: readonly ModelDataItem[];
  field: string | undefined;
  onField(field: string): void;
  range: ChartRange;
  onRange(range: ChartRange): void;
  reply: ModelListReply | undefined;
  loading: boolean;
  error: Error | null;
  phone: boolean;
}

type RangeChoice = RangePreset | 'custom';

/** Names of a field's values from its enumeration (as JSON text), through the shared labelling. */
const namer = (field: string, names: string, lang: keyof LocalText) => {
  const enumeration = JSON.parse(names) as EnumEntry[];
  return (value: number) => valueName({ field, value, enumeration }, lang);
};

/** The chosen field's line over the chosen range, with the field and range pickers above it. */
export function FieldChart(props: FieldChartProps) {
  const { fields, field, onField, range, onRange, reply, loading, error, phone } = props;
  const { t, i18n } = useTranslation('iot');
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const { token } = theme.useToken();
  const numeric = fields.filter(isChartable);
  const choice: RangeChoice = 'preset' in range ? range.preset : 'custom';
  // A number, so the option is not rebuilt each time the newest values arrive.
  const precision = fields.find((f) => f.field === reply?.field)?.precision;
  // Text, for the same reason: the names change only when the product's model does.
  const names = JSON.stringify(fields.find((f) => f.field === reply?.field)?.enumeration ?? []);
  // Text again: the limits arrive with every poll of the values but change only on a PLC variable's edit.
  const limits = JSON.stringify(fields.find((f) => f.field === reply?.field)?.limits ?? null);

  const charted = reply?.field;
  const look = useMemo<ChartLook>(
    () => ({
      line: token.colorPrimary,
      text: token.colorText,
      subtle: token.colorTextSecondary,
      grid: token.colorBorderSecondary,
      precision,
      valueName: names === '[]' || !charted ? undefined : namer(charted, names, lang),
      labels: { average: t('live.average'), min: t('live.min'), max: t('live.max'), value: t('live.value') },
      limits: JSON.parse(limits) as FieldLimits | null,
      compact: phone,
      limitText: {
        limit: (which, value) => t(`limit.${which}`, { value }),
        band: (band, range) =>
          t(band.running ? 'limit.running' : 'limit.band', {
            program: band.programName || String(band.programNo),
            kind: t(`limit.${band.kind}`),
            range,
          }),
      },
    }),
    [charted, token, t, precision, names, lang, limits, phone],
  );
  const option = useMemo(
    () => (reply && reply.points.length ? seriesChartOption(reply, look) : undefined),
    [reply, look],
  );
  // The limits and bands also as text under the chart: readable where a label on the canvas is
  // cut short (a phone) and by a screen reader, which sees no canvas.
  const legend = useMemo(() => {
    if (!reply || !reply.points.length) return [];
    const { lines, bands } = limitMarks(reply, look);
    // One entry a program's limit: the running cycle's wording where it runs now.
    const programs = new Map<string, string>();
    for (const { band, name } of bands) {
      const key = `${band.programNo}|${band.kind}|${band.min}|${band.max}`;
      if (band.running || !programs.has(key)) programs.set(key, name);
    }
    return [
      ...lines.map((l) => ({ key: l.name, text: l.name, colour: l.colour })),
      ...[...programs].map(([key, text]) => ({ key, text, colour: BAND_COLOUR })),
    ];
  }, [reply, look]);

  const pickChoice = (value: RangeChoice) => {
    if (value !== 'custom') onRange({ preset: value });
    // Custom starts from the range shown, so the picker opens on something sensible.
    else if ('preset' in range) onRange({ from: reply?.from ?? Date.now() - 86_400_000, to: reply?.to ?? Date.now() });
  };
  const pickDates = (dates: [Dayjs | null, Dayjs | null] | null) => {
    const [from, to] = dates ?? [];
    if (from && to) onRange({ from: from.valueOf(), to: to.valueOf() });
  };

  const caption =
    reply && reply.points.length
      ? reply.bucketSeconds > 0
        ? t('live.downsampled', { bucket: durationText(reply.bucketSeconds, t) })
        : t('live.raw', { count: reply.points.length })
      : null;

  return (
    <Card
      title={t('live.chart')}
      size="small"
      className="mes-iot-chart-card"
      data-testid="iot-chart-card"
      extra={loading ? <Spin size="small" /> : caption && <Typography.Text type="secondary">{caption}</Typography.Text>}
    >
      {!numeric.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('live.noNumeric')} />
      ) : (
        <>
          <Space wrap className="mes-iot-chart-tools">
            <Select
              value={field}
              onChange={onField}
              options={numeric.map((f) => ({ value: f.field, label: f.name || f.field }))}
              style={{ minWidth: 140 }}
              aria-label={t('live.field')}
              data-testid="iot-chart-field"
            />
            <Segmented<RangeChoice>
              value={choice}
              onChange={pickChoice}
              options={[...RANGE_PRESETS, 'custom' as const].map((value) => ({ value, label: t(`range.${value}`) }))}
              data-testid="iot-chart-range"
            />
            {choice === 'custom' && !('preset' in range) && (
              <DatePicker.RangePicker
                showTime
                value={[dayjs(range.from), dayjs(range.to)]}
                onChange={pickDates}
                allowClear={false}
                style={phone ? { width: '100%' } : undefined}
                data-testid="iot-chart-dates"
              />
            )}
          </Space>
          {error && !reply ? (
            <Alert type="error" showIcon message={t('live.failed', { message: error.message })} />
          ) : option ? (
            <>
              <EChart
                option={option}
                replaceMerge={['series']}
                style={{ height: phone ? 240 : 320 }}
                data-testid="iot-chart"
              />
              <LimitLegend items={legend} testId="iot-chart-limits" />
            </>
          ) : reply ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('live.noPoints')}
              data-testid="iot-chart-empty"
            />
          ) : (
            <div className="mes-iot-chart-wait">
              <Spin />
            </div>
          )}
        </>
      )}
    </Card>
  );
}
