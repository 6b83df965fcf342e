import { Descriptions, Drawer, Empty, Spin, Table, Tag } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldChange, FieldDef, LocalText, ResourceDef } from '@mes/contracts';
import { useApiRead } from '../../../api/use-api';
import type { Row } from '../../../engine/resource-page-types';
import './log.css';

/** Fields shown as monospace blocks that scroll: parameters, stacks, long texts. */
const BLOCK_FIELDS = new Set(['params', 'stackTrace', 'message', 'logData', 'userAgent', 'ids']);

/** A select field's label for a stored value (`1` → 成功), else the value itself. */
export function optionLabel(field: FieldDef, value: unknown, lang: keyof LocalText): string {
  const items = field.options && 'items' in field.options ? field.options.items : undefined;
  const item = items?.find((i) => String(i.value) === String(value));
  return item ? item.label[lang] : String(value ?? '');
}

/** JSON parameters laid out for reading; anything else as it is. */
function pretty(text: string): string {
  if (!/^[[{]/.test(text.trim())) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

function parseChanges(value: unknown): FieldChange[] {
  if (typeof value !== 'string' || !value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as FieldChange[]) : [];
  } catch {
    return [];
  }
}

function ChangeTable({ changes }: { changes: FieldChange[] }) {
  const { t } = useTranslation('log');
  if (!changes.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noChanges')} />;
  const cell = (v: string | null) => (v === null || v === '' ? <span className="mes-muted">{t('empty')}</span> : v);
  return (
    <Table<FieldChange>
      className="mes-log-changes"
      size="small"
      pagination={false}
      rowKey="field"
      dataSource={changes}
      data-testid="log-changes"
      columns={[
        { key: 'label', title: t('field'), width: 140, render: (_, c) => `${c.label} (${c.field})` },
        { key: 'before', title: t('before'), render: (_, c) => cell(c.before) },
        { key: 'after', title: t('after'), render: (_, c) => cell(c.after) },
      ]}
    />
  );
}

export interface LogDetailDrawerProps {
  resource: ResourceDef;
  /** The row whose detail is shown; undefined when closed. */
  row: Row | undefined;
  /** Shows the tenant of the row (the platform reads every tenant's logs). */
  showTenant: boolean;
  onClose(): void;
}

/** A log row in full, read-only: every field, long texts in scrolling monospace blocks. */
export function LogDetailDrawer({ resource, row, showTenant, onClose }: LogDetailDrawerProps) {
  const { t, i18n } = useTranslation('log');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  // Log rows never change: a detail read once is shown again from the cache.
  const read = useApiRead<Row>(`${resource.api}/detail`, { id: row?.id }, { enabled: !!row });
  const detail = row ? read.data : undefined;
  // A detail that cannot be read (the client toasted why) closes the drawer.
  const failed = !!row && read.isError;
  useEffect(() => {
    if (failed) onClose();
  }, [failed, onClose]);

  const value = (name: string, field: FieldDef): ReactNode => {
    const raw = detail?.[name];
    if (name === 'changes') return <ChangeTable changes={parseChanges(raw)} />;
    const text = field.options ? optionLabel(field, raw, lang) : String(raw ?? '');
    if (BLOCK_FIELDS.has(name) || field.kind === 'text') {
      return text ? (
        <pre className="mes-log-code" data-testid={`log-field-${name}`}>
          {name === 'params' ? pretty(text) : text}
        </pre>
      ) : (
        ''
      );
    }
    if (name === 'status' && typeof raw === 'number') return <Tag color={raw >= 400 ? 'red' : 'green'}>{raw}</Tag>;
    return <span data-testid={`log-field-${name}`}>{text}</span>;
  };

  return (
    <Drawer
      open={!!row}
      width={760}
      title={t('detailTitle', { title: resource.title[lang] })}
      onClose={onClose}
      destroyOnHidden
      rootClassName="mes-log-detail"
      data-testid="log-detail-drawer"
    >
      {!detail ? (
        <Spin />
      ) : (
        <Descriptions column={1} size="small" bordered>
          {showTenant && <Descriptions.Item label={t('tenant')}>{String(detail.tenantId ?? '')}</Descriptions.Item>}
          {Object.entries(resource.fields)
            // Empty fields say nothing (a client error has no server or handler, say).
            .filter(([name]) => name === 'changes' || !isBlank(detail[name]))
            .map(([name, field]) => (
              <Descriptions.Item key={name} label={field.label[lang]}>
                {value(name, field)}
              </Descriptions.Item>
            ))}
        </Descriptions>
      )}
    </Drawer>
  );
}
