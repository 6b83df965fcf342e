import { App, Button, Form, Modal, Popconfirm, Select, Table, Tag } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  buttonCodes,
  deviceCycleResource,
  isPackState,
  LOAD_RELEASE_PATH,
  loadResource,
  LoadStatus,
  PACK_STATE_LABELS,
  packResource,
  ParametricResult,
} from '@mes/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiPost, invalidateRoutes } from '../../../api/server-state';
import { useResourceRead } from '../../../api/use-api';
import { ResourcePage } from '../../../engine/resource-page';
import type {
  CustomInputProps,
  ResourcePageContext,
  ResourcePageProps,
  Row,
} from '../../../engine/resource-page-types';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('load');
type Lang = 'zh' | 'en';

function useLang(): Lang {
  const { i18n } = useTranslation();
  return i18n.language.startsWith('en') ? 'en' : 'zh';
}

interface CycleRow {
  id: string;
  startTime: string;
  programName: string;
  parametricResult: number | null;
}

/**
 * The cycle of the load: one of the chosen steriliser's latest finished cycles (the device
 * cycles are far too many for a generic picker of every row).
 */
function CycleInput({ value, onChange, disabled }: CustomInputProps) {
  const lang = useLang();
  const text = TEXT[lang];
  const deviceId = Form.useWatch('deviceId', Form.useFormInstance()) as string | undefined;
  const fetched = useResourceRead<{ records: CycleRow[] }, CycleRow[]>(
    deviceCycleResource,
    'page',
    { deviceId, size: 50, descs: 'endTime' },
    { silent: true, enabled: !!deviceId, select: (page) => page.records },
  ).data;
  // No steriliser chosen: no cycles to offer (the last list is not shown).
  const cycles = deviceId ? (fetched ?? []) : [];
  const judged = (r: number | null) =>
    r === ParametricResult.pass ? text.pass : r === ParametricResult.fail ? text.fail : text.none;
  return (
    <Select
      data-testid="load-cycle"
      allowClear
      disabled={disabled}
      value={value ? String(value) : undefined}
      placeholder={deviceId ? undefined : text.pickDevice}
      onChange={(v) => onChange?.(v ?? null)}
      options={cycles.map((c) => ({
        value: String(c.id),
        label: `${c.startTime} ${c.programName} (${judged(c.parametricResult)})`,
      }))}
    />
  );
}

const INPUTS = { cycleId: CycleInput };

/** The packs of one load with their state and expiry. */
function PacksDialog({ row, onClose }: { row: Row | null; onClose(): void }) {
  const lang = useLang();
  const text = TEXT[lang];
  // Read once the dialog has opened (its animation done), afresh each time, as the table
  // arriving during the opening kept the dialog from taking the keyboard (Escape).
  const [opened, setOpened] = useState<Row | null>(null);
  const read = useResourceRead<{ records: Row[] }, Row[]>(
    packResource,
    'page',
    { loadId: opened ? String(opened.id) : undefined, size: 500 },
    { enabled: !!opened, staleTime: 0, select: (page) => page.records },
  );
  // A failed read is toasted and shows no packs.
  const packs = read.isError ? [] : (read.data ?? null);
  return (
    <Modal
      open={!!row}
      title={text.packsTitle.replace('{no}', String(row?.loadNo ?? ''))}
      width={820}
      destroyOnHidden
      afterOpenChange={(open) => setOpened(open ? row : null)}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{text.close}</Button>}
    >
      <Table<Row>
        data-testid="load-packs"
        size="small"
        rowKey="id"
        loading={packs === null}
        dataSource={packs ?? []}
        pagination={false}
        columns={[
          { key: 'code', dataIndex: 'code', title: text.code },
          { key: 'article', dataIndex: 'articleIdName', title: text.article },
          {
            key: 'state',
            title: text.state,
            render: (_, p) => (isPackState(p.state) ? PACK_STATE_LABELS[p.state][lang] : ''),
          },
          { key: 'expiryDate', dataIndex: 'expiryDate', title: text.expiry },
        ]}
      />
    </Modal>
  );
}

/**
 * 灭菌批次 (docs/packs.md): loads with their cycle, its parametric result and their packs; 放行
 * releases an open load (the server refuses unless the cycle and its indicators passed, naming why).
 */
export default function LoadScreen() {
  const lang = useLang();
  const text = TEXT[lang];
  const { message } = App.useApp();
  const [shown, setShown] = useState<Row | null>(null);
  const extraColumns = useMemo<ResourcePageProps['extraColumns']>(
    () => [
      { key: 'cycleName', title: text.cycle, width: 220, render: (row: Row) => String(row.cycleName ?? '') },
      {
        key: 'parametricResult',
        title: text.parametric,
        width: 100,
        render: (row: Row) => {
          if (row.parametricResult === null || row.parametricResult === undefined) return null;
          const r = Number(row.parametricResult);
          if (r === ParametricResult.pass) return <Tag color="green">{text.pass}</Tag>;
          if (r === ParametricResult.fail) return <Tag color="red">{text.fail}</Tag>;
          return <Tag>{text.none}</Tag>;
        },
      },
      {
        key: 'packCount',
        title: text.packCount,
        width: 90,
        render: (row: Row) => <span data-testid="load-pack-count">{String(row.packCount ?? 0)}</span>,
      },
    ],
    [text],
  );
  // A release moves the load's packs (to 无菌): their reads reload with the loads'.
  const client = useQueryClient();
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) => (
      <>
        <Button type="link" size="small" data-testid="load-packs-open" onClick={() => setShown(row)}>
          {text.packs}
        </Button>
        {ctx.can(buttonCodes.load.release) && Number(row.state) === LoadStatus.open ? (
          <Popconfirm
            title={text.releaseConfirm}
            onConfirm={async () => {
              try {
                const moved = await apiPost<number>(LOAD_RELEASE_PATH, undefined, { params: { id: String(row.id) } });
                void message.success(`${text.release}: ${moved}`);
                ctx.reload();
                void invalidateRoutes(client, packResource);
              } catch {
                // The request has shown the server's reason.
              }
            }}
          >
            <Button type="link" size="small" data-testid="load-release">
              {text.release}
            </Button>
          </Popconfirm>
        ) : null}
      </>
    ),
    [text, message, client],
  );
  return (
    <div data-testid="load-screen">
      <ResourcePage resource={loadResource} extraColumns={extraColumns} rowActions={rowActions} inputs={INPUTS} />
      <PacksDialog row={shown} onClose={() => setShown(null)} />
    </div>
  );
}
