import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Space, Table, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_MAX_CHILD_ROWS,
  validateChildren,
  type ChildCollection,
  type LocalText,
  type ResourceDef,
} from '@mes/contracts';
import { FieldInput } from './field-input';
import { childWireRows, fieldPresence, newChildRow, type ChildFormRow } from './form-values';
import { useFieldOptions } from './use-field-options';

/** A control's change as a value: text inputs hand over their event. */
const valueOf = (change: unknown) =>
  change && typeof change === 'object' && 'target' in change
    ? (change as { target: { value: unknown } }).target.value
    : change;

export interface ChildTableProps {
  /** The parent definition (its rules are checked as a whole, as the server checks them). */
  def: ResourceDef;
  name: string;
  collection: ChildCollection;
  child: ResourceDef;
  lang: keyof LocalText;
  disabled: boolean;
  // Injected by Form.Item.
  id?: string;
  value?: ChildFormRow[];
  onChange?: (rows: ChildFormRow[]) => void;
}

/**
 * The rows of one child collection inside the parent's form (issue 13): each cell the child
 * field's own input, rows added, removed and (where ordered) moved; messages on the row they
 * concern, from the same `validateChildren` the server runs.
 */
export function ChildTable(props: ChildTableProps) {
  const { def, name, collection, child, lang, disabled, id, onChange } = props;
  const { t } = useTranslation('crud', { lng: lang });
  const rows = useMemo(() => props.value ?? [], [props.value]);
  const { options } = useFieldOptions(child.fields, lang);
  const { status } = Form.Item.useStatus();
  // Cells show their message once touched, and every cell after a save was refused.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const max = collection.max ?? DEFAULT_MAX_CHILD_ROWS;

  const rowErrors = useMemo(
    () => validateChildren(def, { [name]: childWireRows(child.fields, rows) }, false, lang).rowErrors[name] ?? {},
    [def, name, child, rows, lang],
  );

  const change = (next: ChildFormRow[]) => onChange?.(next);
  const setCell = (index: number, field: string, raw: unknown) => {
    const row = rows[index];
    if (!row) return;
    setTouched((t) => new Set(t).add(`${row.key}:${field}`));
    change(rows.map((r, i) => (i === index ? { ...r, [field]: valueOf(raw) } : r)));
  };
  const move = (index: number, by: number) => {
    const to = index + by;
    if (to < 0 || to >= rows.length) return;
    const next = [...rows];
    [next[index], next[to]] = [next[to] as ChildFormRow, next[index] as ChildFormRow];
    change(next);
  };

  const editable = Object.entries(child.fields).filter(
    ([, field]) => fieldPresence(field, disabled ? 'view' : 'add', {}) !== 'hidden',
  );
  const columns: TableColumnsType<ChildFormRow> = [
    { key: '#', title: t('rows.row'), width: 64, render: (_, __, index) => index + 1 },
    ...editable.map(([fieldName, field]) => ({
      key: fieldName,
      title: (
        <>
          {!disabled && field.required ? <span style={{ color: '#ff4d4f' }}>* </span> : null}
          {field.label[lang]}
        </>
      ),
      width: field.width,
      render: (_: unknown, row: ChildFormRow, index: number) => {
        const message = rowErrors[index]?.[fieldName];
        const shown = message && (status === 'error' || touched.has(`${row.key}:${fieldName}`));
        return (
          <div
            className={shown ? 'ant-form-item-has-error' : undefined}
            data-testid={`child-cell-${name}-${fieldName}`}
          >
            <FieldInput
              field={field}
              options={options[fieldName]}
              lang={lang}
              disabled={disabled}
              value={row[fieldName]}
              onChange={(v) => setCell(index, fieldName, v)}
              onBlur={() => setTouched((t) => new Set(t).add(`${row.key}:${fieldName}`))}
            />
            {shown ? (
              <div className="ant-form-item-explain-error" role="alert">
                {message}
              </div>
            ) : null}
          </div>
        );
      },
    })),
  ];
  if (!disabled)
    columns.push({
      key: 'actions',
      title: t('rows.actions'),
      width: collection.orderField ? 132 : 64,
      render: (_, __, index) => (
        <Space size={0}>
          {collection.orderField ? (
            <>
              <Button
                type="text"
                size="small"
                icon={<ArrowUpOutlined />}
                title={t('rows.up')}
                aria-label={t('rows.up')}
                disabled={index === 0}
                onClick={() => move(index, -1)}
                data-testid={`child-up-${name}-${index}`}
              />
              <Button
                type="text"
                size="small"
                icon={<ArrowDownOutlined />}
                title={t('rows.down')}
                aria-label={t('rows.down')}
                disabled={index === rows.length - 1}
                onClick={() => move(index, 1)}
                data-testid={`child-down-${name}-${index}`}
              />
            </>
          ) : null}
          <Button
            type="text"
            size="small"
            danger
            icon={<DeleteOutlined />}
            title={t('rows.remove')}
            aria-label={t('rows.remove')}
            onClick={() => change(rows.filter((_, i) => i !== index))}
            data-testid={`child-remove-${name}-${index}`}
          />
        </Space>
      ),
    });

  return (
    <div id={id} className="mes-child-table" data-testid={`child-table-${name}`}>
      <Table<ChildFormRow>
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('rows.empty') }}
        scroll={{ x: 'max-content' }}
      />
      {disabled ? null : (
        <Button
          type="dashed"
          block
          icon={<PlusOutlined />}
          disabled={rows.length >= max}
          onClick={() => change([...rows, newChildRow(child.fields)])}
          data-testid={`child-add-${name}`}
          style={{ marginTop: 8 }}
        >
          {t('rows.add')}
        </Button>
      )}
    </div>
  );
}
