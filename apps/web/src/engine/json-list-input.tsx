import { DeleteOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Input, InputNumber, Modal, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocalText } from '@mes/contracts';
import { listRowsOf, listValueOf, type ListColumn } from './json-list';

type EditRow = Record<string, unknown> & { key: number };

export interface JsonListInputProps {
  columns: ListColumn[];
  title: string;
  lang: keyof LocalText;
  disabled?: boolean;
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  onBlur?: () => void;
}

/**
 * A `json` list of flat objects (an enumeration's `{value, zh, en}`) as a compact button that
 * fits a sub-table cell — "3 项" — opening the rows to edit: one input per property, add and
 * remove. The form keeps JSON text, so the shared check and its messages are unchanged; text
 * that is not such a list (typed by hand elsewhere) is left to the text area.
 */
export function JsonListInput(props: JsonListInputProps) {
  const { columns, title, lang, disabled, id, onChange, onBlur } = props;
  const { t } = useTranslation('crud', { lng: lang });
  const stored = listRowsOf(props.value) ?? [];
  const [draft, setDraft] = useState<EditRow[] | null>(null);
  let next = 0;
  const open = () => setDraft(stored.map((row) => ({ ...row, key: next++ })));
  const close = () => {
    setDraft(null);
    onBlur?.();
  };
  const save = () => {
    if (draft) onChange?.(listValueOf(draft, columns));
    close();
  };
  const setCell = (key: number, column: string, value: unknown) =>
    setDraft((rows) => rows?.map((row) => (row.key === key ? { ...row, [column]: value } : row)) ?? null);

  const tableColumns: TableColumnsType<EditRow> = [
    ...columns.map((c) => ({
      key: c.key,
      title: c.title[lang],
      render: (_: unknown, row: EditRow) =>
        c.numeric ? (
          <InputNumber
            value={row[c.key] as number | undefined}
            disabled={disabled}
            onChange={(v) => setCell(row.key, c.key, v)}
            style={{ width: '100%' }}
            data-testid={`json-list-${c.key}`}
          />
        ) : (
          <Input
            value={(row[c.key] as string | undefined) ?? ''}
            disabled={disabled}
            maxLength={c.max}
            onChange={(e) => setCell(row.key, c.key, e.target.value)}
            data-testid={`json-list-${c.key}`}
          />
        ),
    })),
    ...(disabled
      ? []
      : [
          {
            key: '__actions',
            title: t('rows.actions'),
            width: 70,
            render: (_: unknown, row: EditRow) => (
              <Button
                type="link"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('rows.remove')}
                onClick={() => setDraft((rows) => rows?.filter((r) => r.key !== row.key) ?? null)}
              />
            ),
          },
        ]),
  ];

  return (
    <>
      <Button id={id} size="small" icon={<UnorderedListOutlined />} onClick={open} data-testid="json-list-open">
        {stored.length ? t('rows.entries', { count: stored.length }) : t('rows.none')}
      </Button>
      <Modal
        open={draft !== null}
        title={title}
        width={640}
        onCancel={close}
        onOk={disabled ? close : save}
        destroyOnHidden
        data-testid="json-list-dialog"
      >
        <Table<EditRow>
          size="small"
          rowKey="key"
          pagination={false}
          dataSource={draft ?? []}
          columns={tableColumns}
          scroll={{ y: 360 }}
        />
        {!disabled && (
          <Button
            type="dashed"
            block
            icon={<PlusOutlined />}
            style={{ marginTop: 8 }}
            onClick={() =>
              setDraft((rows) => [...(rows ?? []), { key: Math.max(-1, ...(rows ?? []).map((r) => r.key)) + 1 }])
            }
            data-testid="json-list-add"
          >
            {t('rows.add')}
          </Button>
        )}
      </Modal>
    </>
  );
}
