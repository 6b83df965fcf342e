import { App, Button, Input, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import {
  PACK_STATE_LABELS,
  RECALL_ACTION_LABELS,
  RECALL_ACTION_PATH,
  RECALL_CLOSE_PATH,
  RECALL_DETAIL_PATH,
  RECALL_EXPORT_PATH,
  RECALL_NOTICE_PATH,
  RECALL_REASON_LABELS,
  RECALL_REMARK_MAX,
  RecallState,
  type RecallAction,
  type RecalledPack,
  type RecallView,
} from '@mes/contracts';
import { requestData } from '../../../api/http';
import { download } from '../../../crud/download';

const TEXT = {
  zh: {
    packs: '召回器械包',
    reason: '原因',
    progress: '已处置 {n} / {m}',
    code: '包编号',
    article: '物品',
    loadNo: '批次号',
    state: '状态',
    place: '所在位置',
    patient: '使用机构 / 病历号',
    action: '处置',
    by: '处置人 / 时间',
    remark: '备注',
    pending: '未处置',
    choose: '处置方式',
    remarkHint: '备注(可选)',
    apply: '处置所选',
    closeRecall: '关闭召回',
    closed: '已关闭',
    closedBy: '{by} 于 {at} 关闭',
    open: '处理中',
    exportXlsx: '导出 Excel',
    notice: '打印召回通知',
    none: '该召回没有器械包',
    noRecall: '无器械包召回',
  },
  en: {
    packs: 'Recalled packs',
    reason: 'Reason',
    progress: '{n} of {m} handled',
    code: 'Pack code',
    article: 'Article',
    loadNo: 'Load no',
    state: 'State',
    place: 'Where',
    patient: 'Used at / patient case',
    action: 'Action',
    by: 'By / at',
    remark: 'Remark',
    pending: 'Not handled',
    choose: 'Action',
    remarkHint: 'Remark (optional)',
    apply: 'Apply to selected',
    closeRecall: 'Close recall',
    closed: 'Closed',
    closedBy: 'closed by {by} at {at}',
    open: 'In progress',
    exportXlsx: 'Export Excel',
    notice: 'Print recall notice',
    none: 'The recall names no packs',
    noRecall: 'No pack recall',
  },
};

const ACTIONS = Object.entries(RECALL_ACTION_LABELS).map(([value, label]) => ({ value: Number(value), label }));

/**
 * The packs a failed test recalled (docs/packs.md "Recalls"): each where it is now (and, once
 * used, the patient case), its own action with who and when, the progress, and closing once
 * every pack is handled; the list as xlsx and the recall notice as PDF.
 */
export function PackRecall({
  verificationId,
  mayHandle,
  lang,
}: {
  verificationId: string;
  mayHandle: boolean;
  lang: 'zh' | 'en';
}) {
  const text = TEXT[lang];
  const { message } = App.useApp();
  const [view, setView] = useState<RecallView | null | undefined>(undefined);
  const [selected, setSelected] = useState<string[]>([]);
  const [action, setAction] = useState<RecallAction | undefined>(undefined);
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const read = useCallback(
    () => requestData<RecallView | null>(RECALL_DETAIL_PATH, { params: { id: verificationId } }),
    [verificationId],
  );
  const load = useCallback(async () => setView(await read()), [read]);
  useEffect(() => {
    read().then(setView, () => setView(null));
  }, [read]);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      const done = await work();
      if (typeof done === 'string') void message.success(done);
      await load();
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
      await requestData(RECALL_ACTION_PATH, {
        method: 'POST',
        data: { ids: selected.join(','), action, remark },
      });
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
              void download(RECALL_EXPORT_PATH, { id: view.id }, `recall-${view.verificationNo}.xlsx`).catch(
                () => undefined,
              )
            }
          >
            {text.exportXlsx}
          </Button>
          <Button
            onClick={() =>
              void download(RECALL_NOTICE_PATH, { id: view.id }, `recall-${view.verificationNo}.pdf`).catch(
                () => undefined,
              )
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
                await requestData(RECALL_CLOSE_PATH, { method: 'POST', data: { id: view.id } });
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
