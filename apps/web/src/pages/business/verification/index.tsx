import { App, Button, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  buttonCodes,
  formatDateTime,
  RECALL_RESULT_MAX,
  RecallSource,
  VERIFICATION_HANDLE_RECALL_PATH,
  VERIFICATION_RECALLS_PATH,
  verificationRecordResource,
  type RecalledLoad,
} from '@mes/contracts';
import { apiPost } from '../../../api/server-state';
import { useApiRead } from '../../../api/use-api';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { PackRecall } from './pack-recall';
import { pageTexts } from '../../../i18n/page-texts';

const RECALL_CODE = buttonCodes.verification.recall;

const TEXT = pageTexts('verification');
type Text = (typeof TEXT)['zh'];

/** A test is usually entered as it is read: its time starts as now. */
const addValues = () => ({ testTime: formatDateTime(new Date()) });

function useLang(): 'zh' | 'en' {
  const { i18n } = useTranslation();
  return i18n.language.startsWith('en') ? 'en' : 'zh';
}

function useText(): Text {
  return TEXT[useLang()];
}

/**
 * The recall of a failed test: its packs, each acted on (pack-recall.tsx), and the disinfection
 * records a biological indicator flagged, handled with a result.
 */
function RecallDialog({ row, mayHandle, onClose }: { row: Row | null; mayHandle: boolean; onClose(): void }) {
  const lang = useLang();
  const text = TEXT[lang];
  const { message } = App.useApp();
  const recalls = useApiRead<RecalledLoad[]>(
    VERIFICATION_RECALLS_PATH,
    { id: row?.id },
    { enabled: !!row, staleTime: 0 },
  );
  const loads = recalls.isError ? [] : (recalls.data ?? null);
  const [selected, setSelected] = useState<string[]>([]);
  const [result, setResult] = useState('');
  const [busy, setBusy] = useState(false);
  const handle = async () => {
    if (!row) return;
    setBusy(true);
    try {
      await apiPost(VERIFICATION_HANDLE_RECALL_PATH, { ids: selected.join(','), result });
      void message.success(text.handled);
      setSelected([]);
      setResult('');
      await recalls.refetch();
    } catch {
      // The request has shown its message.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={!!row}
      title={text.title.replace('{no}', String(row?.recordNo ?? ''))}
      width={1200}
      destroyOnHidden
      onCancel={onClose}
      footer={<Button onClick={onClose}>{text.close}</Button>}
    >
      {/* Both parts show at once: the packs to act on first, then the flagged records. */}
      {row ? (
        <>
          <Typography.Title level={5}>{text.packs}</Typography.Title>
          <PackRecall source={RecallSource.verification} recordId={row.id} mayHandle={mayHandle} lang={lang} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {text.records}
          </Typography.Title>
        </>
      ) : null}
      <div data-testid="verification-recalls">
        <Table<RecalledLoad>
          size="small"
          rowKey="id"
          loading={loads === null}
          dataSource={loads ?? []}
          pagination={false}
          locale={{ emptyText: text.none }}
          rowSelection={
            mayHandle
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(String)),
                  getCheckboxProps: (r) => ({ disabled: r.handled }),
                }
              : undefined
          }
          columns={[
            { key: 'recordNo', dataIndex: 'recordNo', title: text.recordNo },
            { key: 'batchNo', dataIndex: 'batchNo', title: text.batchNo },
            { key: 'load', dataIndex: 'load', title: text.load },
            { key: 'endTime', dataIndex: 'endTime', title: text.endTime },
            { key: 'deptName', dataIndex: 'deptName', title: text.dept },
            {
              key: 'handled',
              title: text.state,
              render: (_, r) => (r.handled ? <Tag>{text.handled}</Tag> : <Tag color="red">{text.open}</Tag>),
            },
            { key: 'handleResult', dataIndex: 'handleResult', title: text.result },
          ]}
        />
        {mayHandle ? (
          <Space.Compact style={{ width: '100%', marginTop: 12 }}>
            <Input
              value={result}
              maxLength={RECALL_RESULT_MAX}
              placeholder={text.resultHint}
              onChange={(e) => setResult(e.target.value)}
              data-testid="verification-recall-result"
            />
            <Button
              type="primary"
              disabled={!selected.length || !result.trim()}
              loading={busy}
              onClick={() => void handle()}
              data-testid="verification-recall-handle"
            >
              {text.handle}
            </Button>
          </Space.Compact>
        ) : null}
      </div>
    </Modal>
  );
}

/**
 * 验证记录: the generic record screen (review, correct, versions, chain check) and, on a failed
 * biological indicator, the loads it recalled (docs/records.md).
 */
export default function VerificationScreen() {
  const text = useText();
  const [shown, setShown] = useState<Row | null>(null);
  const [mayHandle, setMayHandle] = useState(false);
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      row.recallTriggered ? (
        <Button
          type="link"
          size="small"
          danger
          data-testid="verification-recalls-open"
          onClick={() => {
            setMayHandle(ctx.can(RECALL_CODE));
            setShown(row);
          }}
        >
          {text.loads}
        </Button>
      ) : null,
    [text],
  );
  return (
    <div data-testid="verification-screen">
      <ResourcePage resource={verificationRecordResource} rowActions={rowActions} addValues={addValues} />
      <RecallDialog row={shown} mayHandle={mayHandle} onClose={() => setShown(null)} />
    </div>
  );
}
