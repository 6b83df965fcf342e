import { Card, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLocalText, nameWithValue, type ModelDataItem } from '@mes/contracts';
import { formatValue, valueName } from './format';
import type { TelemetryListRow } from '@mes/contracts';
import { useTelemetryRows } from './live-data';

const PAGE_SIZE = 10;

/** The device's raw telemetry rows (one per field and time), newest first, paged by the server. */
export function TelemetryTable(props: { deviceCode: string; fields: readonly ModelDataItem[]; phone: boolean }) {
  const { deviceCode, fields, phone } = props;
  const { t, i18n } = useTranslation('iot');
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const [page, setPage] = useState({ current: 1, size: PAGE_SIZE });
  const rows = useTelemetryRows(deviceCode, page.current, page.size);
  const byKey = new Map(fields.map((f) => [f.field, f]));

  const valueOf = (row: TelemetryListRow) => {
    const model = byKey.get(row.field);
    const value = row.numValue !== null ? Number(row.numValue) : row.textValue;
    // A named value reads `灭菌 (3)`: by the model's names, or the server's when the model lacks the field.
    const name = model ? valueName({ ...model, value }, lang) : undefined;
    const served = isLocalText(row.valueLabel) ? row.valueLabel[lang] : undefined;
    if (name ?? served) return nameWithValue((name ?? served) as string, value);
    if (!model) return value === null ? '' : String(value);
    const shown = formatValue({ ...model, value }, t) ?? '';
    return model.unit && model.dataType !== 'bool' && shown ? `${shown} ${model.unit}` : shown;
  };

  const fieldName = (row: TelemetryListRow) => {
    const name = byKey.get(row.field)?.name;
    return name && name !== row.field ? `${name} (${row.field})` : row.field;
  };
  const quality = (row: TelemetryListRow) =>
    row.quality === 0 ? <Tag color="success">{t('live.good')}</Tag> : <Tag color="error">{t('live.bad')}</Tag>;
  // A phone shows what a row says without sideways scrolling: the field over its time, then the value.
  const columns: TableColumnsType<TelemetryListRow> = phone
    ? [
        {
          key: 'field',
          title: `${t('live.field')} / ${t('live.time')}`,
          render: (_, row) => (
            <>
              <div>{fieldName(row)}</div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {row.ts}
              </Typography.Text>
            </>
          ),
        },
        {
          key: 'value',
          title: t('live.value'),
          align: 'right',
          render: (_, row) => (
            <Typography.Text type={row.quality === 0 ? undefined : 'danger'}>{valueOf(row)}</Typography.Text>
          ),
        },
      ]
    : [
        { key: 'ts', title: t('live.time'), dataIndex: 'ts', width: 170 },
        { key: 'field', title: t('live.field'), width: 180, render: (_, row) => fieldName(row) },
        { key: 'value', title: t('live.value'), render: (_, row) => valueOf(row) },
        { key: 'quality', title: t('live.quality'), width: 80, render: (_, row) => quality(row) },
      ];

  return (
    <Card
      title={t('live.rows')}
      size="small"
      extra={<Typography.Text type="secondary">{t('live.rowsHint')}</Typography.Text>}
      data-testid="iot-rows"
    >
      <Table<TelemetryListRow>
        size="small"
        rowKey="id"
        loading={rows.isLoading}
        dataSource={rows.data?.records ?? []}
        scroll={phone ? undefined : { x: 560 }}
        locale={{ emptyText: rows.isError ? t('live.failed', { message: rows.error.message }) : t('live.noValue') }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: Number(rows.data?.total ?? 0),
          showSizeChanger: true,
          size: 'small',
          onChange: (current, size) => setPage((p) => ({ current: size !== p.size ? 1 : current, size })),
        }}
        columns={columns}
      />
    </Card>
  );
}
