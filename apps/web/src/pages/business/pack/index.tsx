import { App, Button, Form, Input, Modal, Select, Table, TreeSelect } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import {
  buttonCodes,
  deptResource,
  isPackState,
  loadResource,
  LoadStatus,
  PACK_HISTORY_PATH,
  PACK_LABEL_PATH,
  PACK_MOVE_PATH,
  PACK_MOVES,
  PACK_STATE_LABELS,
  packResource,
  PackState,
  RELEASE_ONLY_STATES,
  type PackMoveRow,
} from '@mes/contracts';
import { apiPost } from '../../../api/server-state';
import { useApiRead, useApiWrite, useResourceRead } from '../../../api/use-api';
import { download } from '../../../engine/download';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { stateTag, useLang } from './pack-tags';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('pack');
type Text = (typeof TEXT)['zh'];

/** A pack's moves, oldest first: who moved it, when, from which state to which, and where. */
function HistoryDialog({ row, onClose }: { row: Row | null; onClose(): void }) {
  const lang = useLang();
  const text: Text = TEXT[lang];
  // A failed read is toasted and shows an empty history.
  const history = useApiRead<PackMoveRow[]>(
    PACK_HISTORY_PATH,
    { id: row ? String(row.id) : undefined },
    { enabled: !!row, staleTime: 0 },
  );
  const moves = history.isError ? [] : (history.data ?? null);
  return (
    <Modal
      open={!!row}
      title={text.historyTitle.replace('{code}', String(row?.code ?? ''))}
      width={960}
      destroyOnHidden
      onCancel={onClose}
      footer={<Button onClick={onClose}>{text.close}</Button>}
    >
      <Table<PackMoveRow>
        data-testid="pack-history"
        size="small"
        rowKey="id"
        loading={moves === null}
        dataSource={moves ?? []}
        pagination={false}
        columns={[
          { key: 'moveTime', dataIndex: 'moveTime', title: text.time, width: 160 },
          { key: 'from', title: text.from, render: (_, m) => (m.fromState ? stateTag(m.fromState, lang) : '-') },
          { key: 'to', title: text.toState, render: (_, m) => stateTag(m.toState, lang) },
          { key: 'userName', dataIndex: 'userName', title: text.by },
          {
            key: 'where',
            title: text.where,
            render: (_, m) =>
              [
                m.deptName,
                m.lineName,
                m.carName,
                m.loadNo,
                m.patientCase && `${text.patientCase} ${m.patientCase}`,
                m.chairNo && `${text.chairNo} ${m.chairNo}`,
                m.clinician,
              ]
                .filter(Boolean)
                .join(' · '),
          },
          { key: 'remark', dataIndex: 'remark', title: text.remark },
        ]}
      />
    </Modal>
  );
}

interface MoveValues {
  state?: number;
  deptId?: string;
  loadId?: string;
  patientCase?: string;
  chairNo?: string;
  clinician?: string;
  remark?: string;
}

interface TreeNode {
  title: string;
  value: string;
  children?: TreeNode[];
}

/**
 * Moves the chosen packs to a state all of them may move to (the contracts' one table), with the
 * department, the load (into sterilisation) or the patient case (use) the move needs.
 */
function MoveDialog({ rows, onClose, onMoved }: { rows: Row[] | null; onClose(): void; onMoved(): void }) {
  const lang = useLang();
  const text: Text = TEXT[lang];
  const { message } = App.useApp();
  const [form] = Form.useForm<MoveValues>();
  const state = Form.useWatch('state', form);
  const [busy, setBusy] = useState(false);
  const depts =
    useResourceRead<TreeNode[]>(deptResource, 'tree', undefined, { silent: true, enabled: !!rows }).data ?? [];
  const loads =
    useResourceRead<{ records: { id: string; loadNo: string }[] }, { id: string; loadNo: string }[]>(
      loadResource,
      'page',
      { state: LoadStatus.open, size: 100, descs: 'loadNo' },
      { silent: true, enabled: state === PackState.sterilising, select: (page) => page.records },
    ).data ?? [];
  const move = useApiWrite((body: Record<string, unknown>) => apiPost<number>(PACK_MOVE_PATH, body), [packResource]);
  const targets = useMemo(() => {
    if (!rows?.length) return [];
    const sets = rows.map((r) => (isPackState(r.state) ? PACK_MOVES[r.state] : []));
    return (sets[0] ?? []).filter((s) => !RELEASE_ONLY_STATES.includes(s) && sets.every((set) => set.includes(s)));
  }, [rows]);
  const submit = async () => {
    if (!rows) return;
    const values = await form.validateFields();
    setBusy(true);
    try {
      const moved = await move({ ids: rows.map((r) => r.id).join(','), ...values });
      void message.success(text.moved.replace('{n}', String(moved)));
      form.resetFields();
      onMoved();
    } catch {
      // The request has shown its message.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={!!rows}
      title={text.moveTitle.replace('{n}', String(rows?.length ?? 0))}
      destroyOnHidden
      onCancel={onClose}
      okText={text.ok}
      confirmLoading={busy}
      okButtonProps={{ disabled: !targets.length }}
      onOk={() => void submit()}
    >
      {targets.length ? (
        <Form form={form} layout="vertical" data-testid="pack-move-form">
          <Form.Item name="state" label={text.to} rules={[{ required: true }]}>
            <Select
              data-testid="pack-move-state"
              options={targets.map((s) => ({ value: s, label: PACK_STATE_LABELS[s][lang] }))}
            />
          </Form.Item>
          <Form.Item name="deptId" label={text.dept}>
            <TreeSelect allowClear showSearch treeNodeFilterProp="title" treeData={depts} />
          </Form.Item>
          {state === PackState.sterilising ? (
            <Form.Item name="loadId" label={text.load} rules={[{ required: true }]}>
              <Select
                data-testid="pack-move-load"
                options={loads.map((l) => ({ value: l.id, label: l.loadNo }))}
                showSearch
                optionFilterProp="label"
              />
            </Form.Item>
          ) : null}
          {state === PackState.inUse ? (
            <>
              <Form.Item name="patientCase" label={text.patientCase} rules={[{ required: true }]}>
                <Input maxLength={64} />
              </Form.Item>
              <Form.Item name="chairNo" label={text.chairNo}>
                <Input maxLength={32} />
              </Form.Item>
              <Form.Item name="clinician" label={text.clinician}>
                <Input maxLength={64} />
              </Form.Item>
            </>
          ) : null}
          <Form.Item name="remark" label={text.remark}>
            <Input maxLength={255} />
          </Form.Item>
        </Form>
      ) : (
        <p data-testid="pack-move-none">{text.noMove}</p>
      )}
    </Modal>
  );
}

/**
 * 器械包追溯 (docs/packs.md): the generic pack screen (search by state, article, load, expiry),
 * each pack's history, moving the chosen packs and printing their labels.
 */
export default function PackScreen() {
  const lang = useLang();
  const text: Text = TEXT[lang];
  const [shown, setShown] = useState<Row | null>(null);
  const [moving, setMoving] = useState<Row[] | null>(null);
  const [reload, setReload] = useState<(() => void) | null>(null);
  const render = useMemo(() => ({ state: (value: unknown) => stateTag(value, lang) }), [lang]);
  const rowActions = useCallback(
    (row: Row) => (
      <Button type="link" size="small" data-testid="pack-history-open" onClick={() => setShown(row)}>
        {text.history}
      </Button>
    ),
    [text],
  );
  const toolbar = useCallback(
    (ctx: ResourcePageContext) => (
      <>
        {ctx.can(buttonCodes.pack.move) ? (
          <Button
            data-testid="pack-move"
            disabled={!ctx.selectedRows.length}
            onClick={() => {
              setReload(() => ctx.reload);
              setMoving(ctx.selectedRows);
            }}
          >
            {text.move}
          </Button>
        ) : null}
        {ctx.can(buttonCodes.pack.label) ? (
          <Button
            data-testid="pack-label"
            disabled={!ctx.selectedRows.length}
            onClick={() =>
              void download(
                PACK_LABEL_PATH,
                { ids: ctx.selectedRows.map((r) => r.id).join(',') },
                'pack-labels.pdf',
              ).catch(() => undefined)
            }
          >
            {text.label}
          </Button>
        ) : null}
      </>
    ),
    [text],
  );
  return (
    <div data-testid="pack-screen">
      <ResourcePage resource={packResource} rowActions={rowActions} toolbar={toolbar} render={render} />
      <HistoryDialog row={shown} onClose={() => setShown(null)} />
      <MoveDialog
        rows={moving}
        onClose={() => setMoving(null)}
        onMoved={() => {
          setMoving(null);
          reload?.();
        }}
      />
    </div>
  );
}
