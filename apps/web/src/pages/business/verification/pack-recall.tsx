import { App, Button, Input, Modal, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  PACK_STATE_LABELS,
  RECALL_ACTION_LABELS,
  RECALL_PATHS,
  RECALL_REASON_LABELS,
  RECALL_REMARK_MAX,
  RecallState,
  type RecallAction,
  type RecalledPack,
  type RecallSource,
  type RecallView,
} from '@mes/contracts';
import { apiPost } from '../../../api/server-state';
import { useApiRead } from '../../../api/use-api';
import { download } from '../../../engine/download';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('packRecall');

const ACTIONS = Object.entries(RECALL_ACTION_LABELS).map(([value, label]) => ({ value: Number(value), label }));

/**
 * The packs a failed record recalled (docs/packs.md "Recalls"): each where it is now (and, once
 * used, the patient case), its own action with who and when, the progress, and closing once
 * every pack is handled; the list as xlsx and the recall notice as PDF. `source` is the kind of
 * record `recordId` names (a verification record, or a disinfection record for a parametric
 * failure): each kind has its own routes under its own permissions.
 */
export function PackRecall({
  source,
  recordId,
  mayHandle,
  lang,
}: {
  source: RecallSource;
  recordId: string;
  mayHandle: boolean;
  lang: 'zh' | 'en';
}) {
  const text = TEXT[lang];
  const paths = RECALL_PATHS[source];
  const { message } = App.useApp();
  const detail = useApiRead<RecallView | null>(paths.detail, { id: recordId }, { staleTime: 0 });
  // A failed read is toasted and shows as no recall.
  const view: RecallView | null | undefined = detail.isError ? null : detail.isPending ? undefined : detail.data;
  const [selected, setSelected] = useState<string[]>([]);
  const [action, setAction] = useState<RecallAction | undefined>(undefined);
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      const done = await work();
      if (typeof done === 'string') void message.success(done);
      await detail.refetch();
    } catch {
      // The request has shown its message.
    } finally {
      setBusy(false);
    }
  };
  if (view === undefined) return <Table loading dataSource={[]} columns={[]} />;
  if (view === null) return <Typography.Text type="secondary">{text.noRecall}</Typography.Text>;
  const open = view.state === RecallState.open;
  const apply = () =>
    run(async () => {
      await apiPost(paths.action, { ids: selected.join(','), action, remark });
      setSelected([]);
      setRemark('');
      return RECALL_ACTION_LABELS[action as RecallAction][lang];
    });
  return (
    <div data-testid="pack-recall">
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Typography.Text strong>{RECALL_REASON_LABELS[view.reason]?.[lang]}</Typography.Text>
          <Typography.Text type="secondary">
            {view.deviceCode} · {view.recallTime} · {view.recallUserName}
          </Typography.Text>
          {open ? (
            <Tag color="orange" data-testid="pack-recall-state">
              {text.open}
            </Tag>
          ) : (
            <Tag color="green" data-testid="pack-recall-state">
              {text.closed} · {text.closedBy.replace('{by}', view.closeUserName).replace('{at}', view.closeTime ?? '')}
            </Tag>
          )}
        </Space>
        <Space wrap>
          <Button
            onClick={() =>
              void download(paths.export, { id: view.id }, `recall-${view.sourceNo}.xlsx`).catch(() => undefined)
            }
          >
            {text.exportXlsx}
          </Button>
          <Button
            onClick={() =>
              void download(paths.notice, { id: view.id }, `recall-${view.sourceNo}.pdf`).catch(() => undefined)
            }
          >
            {text.notice}
          </Button>
        </Space>
      </Space>
      <div data-testid="pack-recall-progress" style={{ marginBottom: 12 }}>
        <Typography.Text>
          {text.progress.replace('{n}', String(view.handled)).replace('{m}', String(view.total))}
        </Typography.Text>
        <Progress percent={view.total ? Math.round((view.handled / view.total) * 100) : 100} size="small" />
      </div>
      <Table<RecalledPack>
        size="small"
        rowKey="id"
        dataSource={view.packs}
        pagination={view.packs.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: text.none }}
        onRow={(r) => ({ 'data-testid': `pack-recall-row-${r.packCode}` }) as React.HTMLAttributes<HTMLElement>}
        rowSelection={
          mayHandle && open
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }
            : undefined
        }
        columns={[
          { key: 'packCode', dataIndex: 'packCode', title: text.code, width: 150 },
          { key: 'articleName', dataIndex: 'articleName', title: text.article },
          { key: 'loadNo', dataIndex: 'loadNo', title: text.loadNo, width: 140 },
          { key: 'state', title: text.state, width: 90, render: (_, r) => PACK_STATE_LABELS[r.state]?.[lang] },
          {
            key: 'place',
            title: text.place,
            width: 140,
            render: (_, r) => [r.deptName, r.lineName, r.carName].filter(Boolean).join(' / '),
          },
          {
            key: 'patientCase',
            title: text.patient,
            width: 170,
            render: (_, r) => [r.usedDeptName, r.patientCase].filter(Boolean).join(' / '),
          },
          {
            key: 'action',
            title: text.action,
            width: 110,
            render: (_, r) =>
              r.action ? (
                <Tag color="blue">{RECALL_ACTION_LABELS[r.action][lang]}</Tag>
              ) : (
                <Tag color="red">{text.pending}</Tag>
              ),
          },
          {
            key: 'by',
            title: text.by,
            width: 170,
            render: (_, r) => (r.actionTime ? `${r.actionUserName} ${r.actionTime}` : ''),
          },
          { key: 'remark', dataIndex: 'remark', title: text.remark },
        ]}
      />
      {mayHandle && open ? (
        <Space wrap style={{ width: '100%', marginTop: 12, justifyContent: 'space-between' }}>
          <Space.Compact>
            <Select<RecallAction>
              style={{ width: 150 }}
              placeholder={text.choose}
              value={action}
              onChange={setAction}
              options={ACTIONS.map((a) => ({ value: a.value as RecallAction, label: a.label[lang] }))}
              data-testid="pack-recall-action"
            />
            <Input
              style={{ width: 260 }}
              value={remark}
              maxLength={RECALL_REMARK_MAX}
              placeholder={text.remarkHint}
              onChange={(e) => setRemark(e.target.value)}
              data-testid="pack-recall-remark"
            />
            <Button
              type="primary"
              disabled={!selected.length || action === undefined}
              loading={busy}
              onClick={() => void apply()}
              data-testid="pack-recall-apply"
            >
              {text.apply}
            </Button>
          </Space.Compact>
          <Button
            danger
            loading={busy}
            onClick={() =>
              void run(async () => {
                await apiPost(paths.close, { id: view.id });
                return text.closed;
              })
            }
            data-testid="pack-recall-close"
          >
            {text.closeRecall}
          </Button>
        </Space>
      ) : null}
    </div>
  );
}

/** The recall of one record in a dialog of its own (a disinfection record's parametric failure). */
export function PackRecallDialog({
  source,
  record,
  mayHandle,
  lang,
  onClose,
}: {
  source: RecallSource;
  record: { id: string; recordNo: string } | null;
  mayHandle: boolean;
  lang: 'zh' | 'en';
  onClose(): void;
}) {
  const text = TEXT[lang];
  return (
    <Modal
      open={!!record}
      title={text.title.replace('{no}', record?.recordNo ?? '')}
      width={1200}
      destroyOnHidden
      onCancel={onClose}
      footer={<Button onClick={onClose}>{text.close}</Button>}
    >
      {record ? <PackRecall source={source} recordId={record.id} mayHandle={mayHandle} lang={lang} /> : null}
    </Modal>
  );
}
